CREATE TABLE "lab_order_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "lab_order_version_one_row" CHECK ("lab_order_version"."id")
);
--> statement-breakpoint
-- The admin's list shows every photographer's orders: its pages are kept under a version of the
-- lab's orders as a whole, a new number at the commit of any change of any order (and of a
-- photographer's name, business or email, which every card shows). Written in the same deferred
-- triggers as a photographer's version, first: every transaction takes this one row before any
-- photographer's version row, so two commits wait for each other here and never deadlock over
-- their version rows. An upsert, so a database whose tables were emptied gets the row back with
-- its next change.
CREATE FUNCTION "lab_order_version_bump"() RETURNS void LANGUAGE sql AS $$
  INSERT INTO "lab_order_version" ("id", "version") VALUES (true, nextval('order_versions_seq'))
  ON CONFLICT ("id") DO UPDATE SET "version" = excluded."version";
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "order_versions_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "lab_order_version_bump"();
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
CREATE OR REPLACE FUNCTION "order_versions_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- No version, no kept page: the next change starts a new version. The lab's list is empty now.
  DELETE FROM "order_versions";
  PERFORM "lab_order_version_bump"();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "users_lab_order_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "lab_order_version_bump"();
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_lab_order_version" AFTER UPDATE OF "first_name", "last_name", "business_name", "email" ON "users" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN ((OLD."first_name", OLD."last_name", OLD."business_name", OLD."email") IS DISTINCT FROM (NEW."first_name", NEW."last_name", NEW."business_name", NEW."email"))
  EXECUTE FUNCTION "users_lab_order_version_bump"();--> statement-breakpoint
-- The lab's orders now.
SELECT "lab_order_version_bump"();
