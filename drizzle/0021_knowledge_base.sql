CREATE TABLE "article_revisions" (
	"article_id" integer NOT NULL,
	"number" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"category" "ticket_category" NOT NULL,
	"tags" text[] NOT NULL,
	"status" text NOT NULL,
	"visibility" text NOT NULL,
	"author_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_revisions_article_id_number_pk" PRIMARY KEY("article_id","number")
);
--> statement-breakpoint
CREATE TABLE "article_suggestion_events" (
	"id" text PRIMARY KEY NOT NULL,
	"article_id" integer NOT NULL,
	"person_id" text NOT NULL,
	"form_visit" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_suggestion_events_kind_check" CHECK ("article_suggestion_events"."kind" in ('opened', 'deflected'))
);
--> statement-breakpoint
CREATE TABLE "article_views" (
	"article_id" integer NOT NULL,
	"viewer_id" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "article_views_article_id_day_viewer_id_pk" PRIMARY KEY("article_id","day","viewer_id")
);
--> statement-breakpoint
CREATE TABLE "article_votes" (
	"article_id" integer NOT NULL,
	"voter_id" text NOT NULL,
	"helpful" boolean NOT NULL,
	"voted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_votes_article_id_voter_id_pk" PRIMARY KEY("article_id","voter_id")
);
--> statement-breakpoint
CREATE TABLE "articles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "articles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"body" text NOT NULL,
	"category" "ticket_category" NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text NOT NULL,
	"visibility" text NOT NULL,
	"author_id" text,
	"revision" integer DEFAULT 1 NOT NULL,
	"search" "tsvector" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp (3) with time zone,
	CONSTRAINT "articles_status_check" CHECK ("articles"."status" in ('draft', 'published')),
	CONSTRAINT "articles_visibility_check" CHECK ("articles"."visibility" in ('public', 'internal'))
);
--> statement-breakpoint
ALTER TABLE "article_revisions" ADD CONSTRAINT "article_revisions_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_revisions" ADD CONSTRAINT "article_revisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_suggestion_events" ADD CONSTRAINT "article_suggestion_events_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_suggestion_events" ADD CONSTRAINT "article_suggestion_events_person_id_users_id_fk" FOREIGN KEY ("person_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_views" ADD CONSTRAINT "article_views_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_views" ADD CONSTRAINT "article_views_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_votes" ADD CONSTRAINT "article_votes_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_votes" ADD CONSTRAINT "article_votes_voter_id_users_id_fk" FOREIGN KEY ("voter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "articles" ADD CONSTRAINT "articles_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "article_suggestion_events_visit_idx" ON "article_suggestion_events" USING btree ("form_visit","article_id","kind");--> statement-breakpoint
CREATE INDEX "article_suggestion_events_article_idx" ON "article_suggestion_events" USING btree ("article_id","kind");--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search");--> statement-breakpoint
CREATE INDEX "articles_browse_idx" ON "articles" USING btree ("status","visibility","category","updated_at");