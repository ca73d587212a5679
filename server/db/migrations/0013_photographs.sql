CREATE TABLE "photographs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"guid" uuid DEFAULT gen_random_uuid() NOT NULL,
	"lab_order_id" bigint NOT NULL,
	"file_name" text NOT NULL,
	"key" text NOT NULL,
	"size" bigint NOT NULL,
	"checksum" text NOT NULL,
	"content_type" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"preview_key" text,
	"thumbnail_key" text,
	"derivatives_requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "storage_uploads" ADD COLUMN "declared_size" bigint;--> statement-breakpoint
ALTER TABLE "storage_uploads" ADD COLUMN "checksum" text;--> statement-breakpoint
ALTER TABLE "storage_uploads" ADD COLUMN "file_name" text;--> statement-breakpoint
ALTER TABLE "storage_uploads" ADD COLUMN "part_size" integer;--> statement-breakpoint
ALTER TABLE "photographs" ADD CONSTRAINT "photographs_lab_order_id_lab_orders_id_fk" FOREIGN KEY ("lab_order_id") REFERENCES "public"."lab_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "photographs_guid_key" ON "photographs" USING btree ("guid");--> statement-breakpoint
CREATE UNIQUE INDEX "photographs_key_key" ON "photographs" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "photographs_order_checksum_key" ON "photographs" USING btree ("lab_order_id","checksum");--> statement-breakpoint
CREATE INDEX "photographs_order_idx" ON "photographs" USING btree ("lab_order_id","id");--> statement-breakpoint
CREATE INDEX "photographs_missing_derivatives_idx" ON "photographs" USING btree ("derivatives_requested_at") WHERE "photographs"."thumbnail_key" is null;--> statement-breakpoint
CREATE INDEX "storage_uploads_multipart_idx" ON "storage_uploads" USING btree ("multipart_upload_id");