CREATE SEQUENCE "public"."account_versions_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "account_versions" (
	"user_guid" uuid PRIMARY KEY NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
-- A new version of an account's profile at the commit of any change of what the profile shows,
-- whatever code made it: deferred constraint triggers, as for the orders' versions (0022), so a
-- transaction takes the version rows only as it commits. Every version comes from one sequence,
-- so a version never repeats, even after a truncate.
CREATE FUNCTION "account_version_bump"(account uuid) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "account_versions" ("user_guid", "version") SELECT account, nextval('account_versions_seq') WHERE account IS NOT NULL
  ON CONFLICT ("user_guid") DO UPDATE SET "version" = excluded."version";
$$;--> statement-breakpoint
-- An address, card, shop or tax report: its account's profile (both, if it moved).
CREATE FUNCTION "account_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "account_version_bump"(OLD."user_guid");
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW."user_guid" IS DISTINCT FROM OLD."user_guid") THEN
    PERFORM "account_version_bump"(NEW."user_guid");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A user: their own profile; their referrer's (who counts them); and the profiles of the users
-- they referred, which show their email.
CREATE FUNCTION "account_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    PERFORM "account_version_bump"(NEW."guid");
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND NEW."guid" IS DISTINCT FROM OLD."guid") THEN
    PERFORM "account_version_bump"(OLD."guid");
  END IF;
  IF TG_OP = 'INSERT' THEN
    PERFORM "account_version_bump"(NEW."referred_by_guid");
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "account_version_bump"(OLD."referred_by_guid");
  ELSIF NEW."referred_by_guid" IS DISTINCT FROM OLD."referred_by_guid" THEN
    PERFORM "account_version_bump"(OLD."referred_by_guid");
    PERFORM "account_version_bump"(NEW."referred_by_guid");
  END IF;
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (NEW."email" IS DISTINCT FROM OLD."email" OR NEW."guid" IS DISTINCT FROM OLD."guid")) THEN
    INSERT INTO "account_versions" ("user_guid", "version")
    SELECT r."guid", nextval('account_versions_seq') FROM (SELECT "guid" FROM "users" WHERE "referred_by_guid" = OLD."guid" ORDER BY "guid") r
    ON CONFLICT ("user_guid") DO UPDATE SET "version" = excluded."version";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "account_versions_reset"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- No version, no kept profile: the next change starts a new version.
  DELETE FROM "account_versions";
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "users_account_version" AFTER INSERT OR UPDATE OR DELETE ON "users" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "account_user_changed"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "addresses_account_version" AFTER INSERT OR UPDATE OR DELETE ON "addresses" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "account_rows_changed"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "cards_account_version" AFTER INSERT OR UPDATE OR DELETE ON "cards" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "account_rows_changed"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "shop_connections_account_version" AFTER INSERT OR UPDATE OR DELETE ON "shop_connections" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "account_rows_changed"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "tax_reports_account_version" AFTER INSERT OR UPDATE OR DELETE ON "tax_reports" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "account_rows_changed"();--> statement-breakpoint
CREATE TRIGGER "users_account_versions_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "account_versions_reset"();--> statement-breakpoint
CREATE TRIGGER "addresses_account_versions_truncate" AFTER TRUNCATE ON "addresses" FOR EACH STATEMENT EXECUTE FUNCTION "account_versions_reset"();--> statement-breakpoint
CREATE TRIGGER "cards_account_versions_truncate" AFTER TRUNCATE ON "cards" FOR EACH STATEMENT EXECUTE FUNCTION "account_versions_reset"();--> statement-breakpoint
CREATE TRIGGER "shop_connections_account_versions_truncate" AFTER TRUNCATE ON "shop_connections" FOR EACH STATEMENT EXECUTE FUNCTION "account_versions_reset"();--> statement-breakpoint
CREATE TRIGGER "tax_reports_account_versions_truncate" AFTER TRUNCATE ON "tax_reports" FOR EACH STATEMENT EXECUTE FUNCTION "account_versions_reset"();--> statement-breakpoint
-- The accounts there are now.
INSERT INTO "account_versions" ("user_guid", "version") SELECT "guid", nextval('account_versions_seq') FROM "users";
