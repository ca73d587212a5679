CREATE SEQUENCE "public"."order_versions_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "order_versions" (
	"user_guid" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
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
