CREATE TABLE "storage_uploads" (
	"key" text PRIMARY KEY NOT NULL,
	"owner_guid" uuid NOT NULL,
	"purpose" text NOT NULL,
	"multipart_upload_id" text,
	"content_type" text NOT NULL,
	"max_bytes" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "shop_connections_shop_key";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "shop_connections" ADD COLUMN "confirmed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "storage_uploads_expires_idx" ON "storage_uploads" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "shop_connections_confirmed_shop_key" ON "shop_connections" USING btree ("shop_domain") WHERE confirmed_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "shop_connections_user_shop_key" ON "shop_connections" USING btree ("user_guid","shop_domain");--> statement-breakpoint
UPDATE "shop_connections" SET "confirmed_at" = "connected_at" WHERE "confirmed_at" IS NULL;