CREATE TABLE "order_delays" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"old_date" date,
	"new_date" date NOT NULL,
	"reason" text NOT NULL,
	"declared_by" text NOT NULL,
	"admin_guid" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogues" ADD COLUMN "turnaround_days" jsonb DEFAULT '{"prints":2,"mounted":3,"canvas":4,"framed":6}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogues" ADD COLUMN "holidays" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "promised_ship_date" date;--> statement-breakpoint
ALTER TABLE "order_delays" ADD CONSTRAINT "order_delays_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_delays" ADD CONSTRAINT "order_delays_admin_guid_users_guid_fk" FOREIGN KEY ("admin_guid") REFERENCES "public"."users"("guid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "order_delays_order_idx" ON "order_delays" USING btree ("lab_order_id","id");--> statement-breakpoint
CREATE INDEX "lab_orders_promised_idx" ON "lab_orders" USING btree ("promised_ship_date") WHERE "lab_orders"."status" in ('paid', 'printing', 'framing');