ALTER TABLE "users" ADD COLUMN "blanket_certificate_key" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "terms_accepted_at" timestamp with time zone;