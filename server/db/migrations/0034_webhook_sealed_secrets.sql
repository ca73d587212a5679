ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "sealed_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "secret_hint" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- The hint of rows registered before: SQL cannot seal (the key is not in the database), so the
-- secrets themselves are sealed by the server at its next start (services/webhook-secrets.ts).
UPDATE "webhook_endpoints" SET "secret_hint" = right("secret", 4) WHERE "secret" IS NOT NULL;
