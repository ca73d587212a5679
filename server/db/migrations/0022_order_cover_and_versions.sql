CREATE SEQUENCE "public"."order_versions_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "order_versions" (
	"user_guid" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
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
SELECT "lab_orders_refresh_cover"(ARRAY(SELECT DISTINCT "lab_order_id" FROM "photographs"));--> statement-breakpoint
-- A new version of a photographer's orders with every insert, change or delete of one of them,
-- written when the change commits (a deferred constraint trigger): by then the transaction takes
-- no lock but the version rows', so two transactions changing one photographer's orders wait for
-- each other there instead of deadlocking with their order rows. Every version comes from one sequence, so a
-- version never repeats, even after a truncate.
CREATE FUNCTION "order_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO "order_versions" ("user_guid", "version") VALUES (OLD."user_guid", nextval('order_versions_seq'))
    ON CONFLICT ("user_guid") DO UPDATE SET "version" = excluded."version";
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."user_guid" IS DISTINCT FROM OLD."user_guid") THEN
    INSERT INTO "order_versions" ("user_guid", "version") VALUES (NEW."user_guid", nextval('order_versions_seq'))
    ON CONFLICT ("user_guid") DO UPDATE SET "version" = excluded."version";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "order_versions_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- No version, no kept page: the next change starts a new version.
  DELETE FROM "order_versions";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "lab_orders_version" AFTER INSERT OR UPDATE OR DELETE ON "lab_orders" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "order_versions_bump"();--> statement-breakpoint
CREATE TRIGGER "lab_orders_version_truncate" AFTER TRUNCATE ON "lab_orders" FOR EACH STATEMENT EXECUTE FUNCTION "order_versions_reset"();--> statement-breakpoint
-- The photographers with orders now.
INSERT INTO "order_versions" ("user_guid", "version") SELECT "user_guid", nextval('order_versions_seq') FROM (SELECT DISTINCT "user_guid" FROM "lab_orders") u;
