CREATE TABLE "paper_profiles" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"colour_space" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "catalogues" ADD COLUMN "revision" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "icc_profile_key" text;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_icc_profile_key_paper_profiles_key_fk" FOREIGN KEY ("icc_profile_key") REFERENCES "public"."paper_profiles"("key") ON DELETE no action ON UPDATE no action;