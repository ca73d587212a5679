CREATE TABLE "line_item_merges" (
	"guid" uuid PRIMARY KEY NOT NULL,
	"line_item_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guid" uuid NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"photograph_id" bigint NOT NULL,
	"print_size_guid" uuid NOT NULL,
	"finishing_service_guid" uuid,
	"finishing_detail_guids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"print_border" text DEFAULT 'none' NOT NULL,
	"notes" text,
	"internal_notes" text,
	"external_id" text,
	"crop_x" double precision NOT NULL,
	"crop_y" double precision NOT NULL,
	"crop_w" double precision NOT NULL,
	"crop_h" double precision NOT NULL,
	"aspect" double precision,
	"quantity" integer NOT NULL,
	"print_cents" integer NOT NULL,
	"finishing_cents" integer NOT NULL,
	"crop_version" integer DEFAULT 1 NOT NULL,
	"cropped_key" text,
	"crop_requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "notes" text;--> statement-breakpoint
ALTER TABLE "line_item_merges" ADD CONSTRAINT "line_item_merges_line_item_id_line_items_id_fk" FOREIGN KEY ("line_item_id") REFERENCES "public"."line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_items" ADD CONSTRAINT "line_items_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_items" ADD CONSTRAINT "line_items_photograph_id_photographs_id_fk" FOREIGN KEY ("photograph_id") REFERENCES "public"."photographs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_items" ADD CONSTRAINT "line_items_print_size_guid_print_sizes_guid_fk" FOREIGN KEY ("print_size_guid") REFERENCES "public"."print_sizes"("guid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_items" ADD CONSTRAINT "line_items_finishing_service_guid_finishing_services_guid_fk" FOREIGN KEY ("finishing_service_guid") REFERENCES "public"."finishing_services"("guid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_item_merges_line_item_idx" ON "line_item_merges" USING btree ("line_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "line_items_guid_key" ON "line_items" USING btree ("guid");--> statement-breakpoint
CREATE INDEX "line_items_order_idx" ON "line_items" USING btree ("lab_order_id","id");--> statement-breakpoint
CREATE INDEX "line_items_photograph_idx" ON "line_items" USING btree ("photograph_id");--> statement-breakpoint
CREATE INDEX "line_items_missing_cropped_idx" ON "line_items" USING btree ("crop_requested_at") WHERE "line_items"."cropped_key" is null;