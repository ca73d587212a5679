ALTER TABLE "users" ADD COLUMN "packing_slip_logo_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "packing_slip_return_address" jsonb;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "blind_slip" boolean DEFAULT false NOT NULL;