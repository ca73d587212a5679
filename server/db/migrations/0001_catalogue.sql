CREATE TABLE "catalogues" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finishing_details" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"finishing_service_guid" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"price_cents" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finishing_services" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"print_size_guid" uuid NOT NULL,
	"category" text NOT NULL,
	"name" text NOT NULL,
	"frame_profile" text,
	"price_cents" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"catalogue_id" bigint NOT NULL,
	"name" text NOT NULL,
	"allows_border" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "print_sizes" (
	"guid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"paper_guid" uuid NOT NULL,
	"name" text NOT NULL,
	"x_aspect" integer NOT NULL,
	"y_aspect" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "finishing_details" ADD CONSTRAINT "finishing_details_finishing_service_guid_finishing_services_guid_fk" FOREIGN KEY ("finishing_service_guid") REFERENCES "public"."finishing_services"("guid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finishing_services" ADD CONSTRAINT "finishing_services_print_size_guid_print_sizes_guid_fk" FOREIGN KEY ("print_size_guid") REFERENCES "public"."print_sizes"("guid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "papers" ADD CONSTRAINT "papers_catalogue_id_catalogues_id_fk" FOREIGN KEY ("catalogue_id") REFERENCES "public"."catalogues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "print_sizes" ADD CONSTRAINT "print_sizes_paper_guid_papers_guid_fk" FOREIGN KEY ("paper_guid") REFERENCES "public"."papers"("guid") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finishing_details_service_idx" ON "finishing_details" USING btree ("finishing_service_guid");--> statement-breakpoint
CREATE INDEX "finishing_services_print_size_idx" ON "finishing_services" USING btree ("print_size_guid");--> statement-breakpoint
CREATE INDEX "papers_catalogue_idx" ON "papers" USING btree ("catalogue_id");--> statement-breakpoint
CREATE INDEX "print_sizes_paper_idx" ON "print_sizes" USING btree ("paper_guid");