CREATE TABLE "order_client_addresses" (
	"lab_order_id" bigint PRIMARY KEY NOT NULL,
	"recipient" text NOT NULL,
	"street" text NOT NULL,
	"street2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogues" ADD COLUMN "shipping_speed_cents" jsonb DEFAULT '{"standard":1000,"two_day":2400,"overnight":3900}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "catalogues" ADD COLUMN "drop_ship_fee_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "finishing_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "shipping_speed" text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "drop_ship_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "order_client_addresses" ADD CONSTRAINT "order_client_addresses_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Orders before this migration: their finishing from their line items, so the all-in cost shows it.
UPDATE "lab_orders" o SET "finishing_cents" = s.cents FROM (SELECT "lab_order_id", sum("finishing_cents" * "quantity")::integer AS cents FROM "line_items" GROUP BY "lab_order_id") s WHERE s."lab_order_id" = o."id";
