ALTER TABLE "lab_orders" ADD COLUMN "cover_key" text;--> statement-breakpoint
-- The orders list's cover photo (the first photo's thumbnail, else its original), kept on the order
-- by statement-level triggers on photographs in the transaction of the change, whatever code made
-- it (an upload, the derivatives job, a merge moving photos, a deleted photo or order): a page of
-- the list then reads a column instead of looking up every order's first photo. An order is written
-- only when its cover changes.
CREATE FUNCTION "lab_orders_refresh_cover"(order_ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE "lab_orders" o SET "cover_key" = c."cover"
  FROM (
    SELECT ids."id", (SELECT coalesce(p."thumbnail_key", p."key") FROM "photographs" p WHERE p."lab_order_id" = ids."id" ORDER BY p."id" LIMIT 1) AS "cover"
    FROM (SELECT DISTINCT unnest(order_ids) AS "id") ids
  ) c
  WHERE o."id" = c."id" AND o."cover_key" IS DISTINCT FROM c."cover";
$$;--> statement-breakpoint
CREATE FUNCTION "photographs_cover_added"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "lab_orders_refresh_cover"(ARRAY(SELECT "lab_order_id" FROM "added_photographs"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "photographs_cover_removed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "lab_orders_refresh_cover"(ARRAY(SELECT "lab_order_id" FROM "removed_photographs"));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "photographs_cover_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Only photos whose order, original or thumbnail changed (the derivatives job, a merge moving
  -- photos to another order: both orders); housekeeping's other updates touch no order.
  PERFORM "lab_orders_refresh_cover"(ARRAY(
    SELECT x."id"
    FROM "old_photographs" o
    JOIN "new_photographs" n ON n."id" = o."id"
    CROSS JOIN LATERAL (VALUES (o."lab_order_id"), (n."lab_order_id")) AS x("id")
    WHERE (o."lab_order_id", o."key", o."thumbnail_key") IS DISTINCT FROM (n."lab_order_id", n."key", n."thumbnail_key")));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "photographs_cover_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "lab_orders" SET "cover_key" = NULL WHERE "cover_key" IS NOT NULL;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "photographs_cover_insert" AFTER INSERT ON "photographs" REFERENCING NEW TABLE AS "added_photographs" FOR EACH STATEMENT EXECUTE FUNCTION "photographs_cover_added"();--> statement-breakpoint
CREATE TRIGGER "photographs_cover_delete" AFTER DELETE ON "photographs" REFERENCING OLD TABLE AS "removed_photographs" FOR EACH STATEMENT EXECUTE FUNCTION "photographs_cover_removed"();--> statement-breakpoint
CREATE TRIGGER "photographs_cover_update" AFTER UPDATE ON "photographs" REFERENCING OLD TABLE AS "old_photographs" NEW TABLE AS "new_photographs" FOR EACH STATEMENT EXECUTE FUNCTION "photographs_cover_changed"();--> statement-breakpoint
CREATE TRIGGER "photographs_cover_truncate" AFTER TRUNCATE ON "photographs" FOR EACH STATEMENT EXECUTE FUNCTION "photographs_cover_reset"();--> statement-breakpoint
-- The orders there are now.
SELECT "lab_orders_refresh_cover"(ARRAY(SELECT DISTINCT "lab_order_id" FROM "photographs"));
