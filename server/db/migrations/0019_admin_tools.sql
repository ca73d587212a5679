CREATE TABLE "admin_actions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"admin_guid" uuid,
	"user_guid" uuid NOT NULL,
	"kind" text NOT NULL,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"actor_guid" uuid,
	"kind" text NOT NULL,
	"from_value" text,
	"to_value" text,
	"detail" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"amount_cents" integer NOT NULL,
	"note" text,
	"actor_guid" uuid,
	"idempotency_key" text NOT NULL,
	"provider_refund_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE TABLE "sandbox_refunds" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"charge_id" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "photographs_key_key";--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "urgent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "internal_notes" text;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "tracking_url" text;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "shipped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "api_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "test_print" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "color_correction" text DEFAULT 'lab' NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "refund_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "has_frame" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "has_mount" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "has_mat" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "has_canvas" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "has_prints" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "line_item_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "zip_key" text;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "zip_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "last_sent_to_vendor_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "lab_orders" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "admin_actions" ADD CONSTRAINT "admin_actions_admin_guid_users_guid_fk" FOREIGN KEY ("admin_guid") REFERENCES "public"."users"("guid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_actions" ADD CONSTRAINT "admin_actions_user_guid_users_guid_fk" FOREIGN KEY ("user_guid") REFERENCES "public"."users"("guid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_events" ADD CONSTRAINT "order_events_actor_guid_users_guid_fk" FOREIGN KEY ("actor_guid") REFERENCES "public"."users"("guid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_actor_guid_users_guid_fk" FOREIGN KEY ("actor_guid") REFERENCES "public"."users"("guid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_actions_user_idx" ON "admin_actions" USING btree ("user_guid","id");--> statement-breakpoint
CREATE INDEX "order_events_order_idx" ON "order_events" USING btree ("lab_order_id","id");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("lab_order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_idempotency_key_key" ON "refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "lab_orders_urgent_idx" ON "lab_orders" USING btree (coalesce("paid_at", "updated_at"),"id") WHERE "lab_orders"."urgent";--> statement-breakpoint
CREATE INDEX "photographs_key_idx" ON "photographs" USING btree ("key");--> statement-breakpoint
-- What an order's line items hold (frame, mount, mat, canvas, plain prints, how many), kept on the
-- order by statement-level triggers on line_items in the transaction of the change, whatever code
-- made it (the builder, a merge moving line items, a cascade from a deleted photo): the admin's
-- filters then read columns of the order instead of looking into each order's line items.
CREATE FUNCTION "lab_orders_refresh_contents"(order_ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE "lab_orders" o SET ("has_frame", "has_mount", "has_mat", "has_canvas", "has_prints", "line_item_count") = (
    SELECT
      coalesce(bool_or(fs."category" in ('contemporary_frame', 'hardwood_frame', 'desktop_frame', 'hardwood_float_canvas_frame')), false),
      coalesce(bool_or(fs."category" = 'mount'), false),
      coalesce(bool_or(fs."category" in ('four_ply_mat', 'eight_ply_mat')), false),
      coalesce(bool_or(p."name" ilike '%canvas%' or fs."category" = 'hardwood_float_canvas_frame'), false),
      coalesce(bool_or(fs."guid" is null or fs."category" = 'none'), false),
      count(li."id")::integer
    FROM "line_items" li
    JOIN "print_sizes" ps ON ps."guid" = li."print_size_guid"
    JOIN "papers" p ON p."guid" = ps."paper_guid"
    LEFT JOIN "finishing_services" fs ON fs."guid" = li."finishing_service_guid"
    WHERE li."lab_order_id" = o."id")
  WHERE o."id" = ANY(order_ids);
$$;--> statement-breakpoint
CREATE FUNCTION "line_items_contents_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "lab_orders_refresh_contents"(ARRAY(SELECT DISTINCT "lab_order_id" FROM "added_line_items"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "line_items_contents_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "lab_orders_refresh_contents"(ARRAY(SELECT DISTINCT "lab_order_id" FROM "removed_line_items"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "line_items_contents_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A merge moves line items to another order: both orders change.
  PERFORM "lab_orders_refresh_contents"(ARRAY(SELECT "lab_order_id" FROM "old_line_items" UNION SELECT "lab_order_id" FROM "new_line_items"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "line_items_contents_insert" AFTER INSERT ON "line_items" REFERENCING NEW TABLE AS "added_line_items" FOR EACH STATEMENT EXECUTE FUNCTION "line_items_contents_added"();--> statement-breakpoint
CREATE TRIGGER "line_items_contents_delete" AFTER DELETE ON "line_items" REFERENCING OLD TABLE AS "removed_line_items" FOR EACH STATEMENT EXECUTE FUNCTION "line_items_contents_removed"();--> statement-breakpoint
CREATE TRIGGER "line_items_contents_update" AFTER UPDATE ON "line_items" REFERENCING OLD TABLE AS "old_line_items" NEW TABLE AS "new_line_items" FOR EACH STATEMENT EXECUTE FUNCTION "line_items_contents_changed"();--> statement-breakpoint
-- The orders there are now.
SELECT "lab_orders_refresh_contents"(ARRAY(SELECT DISTINCT "lab_order_id" FROM "line_items"));
