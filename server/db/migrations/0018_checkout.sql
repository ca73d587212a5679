CREATE TABLE "discount_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"percent" integer,
	"amount_cents" integer,
	"expires_at" timestamp with time zone,
	"usage_limit" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_code_upper" CHECK ("discount_codes"."code" = upper("discount_codes"."code")),
	CONSTRAINT "discount_codes_kind" CHECK (("discount_codes"."kind" = 'percent' and "discount_codes"."percent" between 1 and 100 and "discount_codes"."amount_cents" is null) or ("discount_codes"."kind" = 'amount' and "discount_codes"."amount_cents" > 0 and "discount_codes"."percent" is null)),
	CONSTRAINT "discount_codes_uses" CHECK ("discount_codes"."uses" >= 0 and ("discount_codes"."usage_limit" is null or "discount_codes"."uses" <= "discount_codes"."usage_limit"))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"attempt" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"credit_cents" integer DEFAULT 0 NOT NULL,
	"discount_code_id" uuid,
	"card_id" uuid,
	"save_card" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider_charge_id" text,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_charges" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"customer_id" text,
	"provider_card_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" text NOT NULL,
	"message" text,
	"description" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cards" ADD COLUMN "kept" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "credit_requested_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "discount_code_id" uuid;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "local_pickup" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "shipping_address" jsonb;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "selected_card_id" uuid;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "used_saved_card" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "boutique_shipping" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "boutique_note" text;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "boutique_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "permission_to_share" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "payment_confirmation" text;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_card_id_cards_id_fk" FOREIGN KEY ("card_id") REFERENCES "public"."cards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_key" ON "discount_codes" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_key" ON "payments" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_order_attempt_key" ON "payments" USING btree ("lab_order_id","attempt");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_live_per_order_key" ON "payments" USING btree ("lab_order_id") WHERE "payments"."status" in ('pending', 'succeeded');--> statement-breakpoint
CREATE INDEX "payments_pending_idx" ON "payments" USING btree ("created_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "lab_orders" ADD CONSTRAINT "lab_orders_discount_code_id_discount_codes_id_fk" FOREIGN KEY ("discount_code_id") REFERENCES "public"."discount_codes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD CONSTRAINT "lab_orders_selected_card_id_cards_id_fk" FOREIGN KEY ("selected_card_id") REFERENCES "public"."cards"("id") ON DELETE set null ON UPDATE no action;