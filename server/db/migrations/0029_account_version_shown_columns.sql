-- The users' trigger of 0027 gives a new profile version only when something a profile shows
-- changed.
CREATE OR REPLACE FUNCTION "account_user_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A change of what no profile shows (a sign-in's failure count, the password, the time of the
  -- last change, the mail switches) keeps every kept profile: a refused sign-in changes nothing.
  IF TG_OP = 'UPDATE' AND (to_jsonb(NEW) - '{password_hash,failed_login_count,failed_login_at,updated_at,status_mails_off}'::text[])
      = (to_jsonb(OLD) - '{password_hash,failed_login_count,failed_login_at,updated_at,status_mails_off}'::text[]) THEN
    RETURN NULL;
  END IF;
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
$$;
