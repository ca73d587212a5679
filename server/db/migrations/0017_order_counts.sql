CREATE TABLE "order_counts" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"orders" bigint NOT NULL,
	CONSTRAINT "order_counts_one_row" CHECK ("order_counts"."id")
);
--> statement-breakpoint
-- The count starts as the orders there are now; from here on the triggers below keep it, in the
-- transaction of the change itself. Statement-level triggers with transition tables: a bulk
-- insert or a cascade of thousands of deletes costs one update of the row, not one per order.
INSERT INTO "order_counts" ("id", "orders") SELECT true, count(*) FROM "lab_orders";--> statement-breakpoint
CREATE FUNCTION "order_counts_add"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT count(*) INTO n FROM "added_orders";
  -- A statement that inserted nothing (ON CONFLICT DO NOTHING) leaves the row unlocked.
  IF n > 0 THEN
    UPDATE "order_counts" SET "orders" = "orders" + n WHERE "id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "order_counts_remove"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
BEGIN
  SELECT count(*) INTO n FROM "removed_orders";
  IF n > 0 THEN
    UPDATE "order_counts" SET "orders" = "orders" - n WHERE "id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "order_counts_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "order_counts" SET "orders" = 0 WHERE "id";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "lab_orders_count_insert" AFTER INSERT ON "lab_orders" REFERENCING NEW TABLE AS "added_orders" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_add"();--> statement-breakpoint
CREATE TRIGGER "lab_orders_count_delete" AFTER DELETE ON "lab_orders" REFERENCING OLD TABLE AS "removed_orders" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_remove"();--> statement-breakpoint
CREATE TRIGGER "lab_orders_count_truncate" AFTER TRUNCATE ON "lab_orders" FOR EACH STATEMENT EXECUTE FUNCTION "order_counts_reset"();
