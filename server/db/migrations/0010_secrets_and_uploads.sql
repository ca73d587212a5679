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
ALTER TABLE "idempotency_keys" ADD COLUMN "session_id" uuid;--> statement-breakpoint
CREATE INDEX "storage_uploads_expires_idx" ON "storage_uploads" USING btree ("expires_at");