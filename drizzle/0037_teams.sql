CREATE TABLE "team_members" (
	"team_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"lead_id" text,
	"assignment" text DEFAULT 'off' NOT NULL,
	"last_assigned_to" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_assignment_check" CHECK ("teams"."assignment" in ('off', 'round_robin', 'least_open'))
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "team_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "away_since" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_lead_id_users_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_last_assigned_to_users_id_fk" FOREIGN KEY ("last_assigned_to") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_members_user_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_lower_name_idx" ON "teams" USING btree (lower("name"));--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tickets_team_idx" ON "tickets" USING btree ("team_id","created_at","id") WHERE "tickets"."team_id" is not null;--> statement-breakpoint
CREATE INDEX "tickets_team_unassigned_idx" ON "tickets" USING btree ("team_id","created_at","id") WHERE "tickets"."team_id" is not null and "tickets"."assigned_to" is null;--> statement-breakpoint
-- custom SQL (kept on renumbering)
-- A notification may also be addressed to one team's technicians (decision 069): audience 'team:<id>'.
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_audience_check";--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_audience_check" CHECK ("audience" = 'technicians' or "audience" like 'team:%');--> statement-breakpoint
ALTER TABLE "notification_audience_members" DROP CONSTRAINT "notification_audience_members_audience_check";--> statement-breakpoint
ALTER TABLE "notification_audience_members" ADD CONSTRAINT "notification_audience_members_audience_check" CHECK ("audience" = 'technicians' or "audience" like 'team:%');--> statement-breakpoint
-- Who is in which audience, kept by the database (decisions 068, 069): an active technician is in the
-- technicians' audience and in each of their teams'. Becoming one (or coming back) starts after the newest
-- notification; leaving takes them out of all. Joining a team while an active technician, likewise.
CREATE OR REPLACE FUNCTION technicians_audience_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role = 'technician' AND NEW.status = 'Active' THEN
    IF TG_OP = 'INSERT' OR OLD.role IS DISTINCT FROM 'technician' OR OLD.status IS DISTINCT FROM 'Active' THEN
      INSERT INTO notification_audience_members (user_id, audience, after_id, read_up_to_id)
      SELECT NEW.id, a.audience, n.newest, n.newest
      FROM (SELECT coalesce(max(id), 0) AS newest FROM notifications) n,
           (SELECT 'technicians' AS audience UNION ALL
            SELECT 'team:' || team_id FROM team_members WHERE user_id = NEW.id) a
      ON CONFLICT (user_id, audience) DO UPDATE SET after_id = excluded.after_id, read_up_to_id = excluded.read_up_to_id;
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM notification_audience_members WHERE user_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION team_audience_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO notification_audience_members (user_id, audience, after_id, read_up_to_id)
    SELECT NEW.user_id, 'team:' || NEW.team_id, n.newest, n.newest
    FROM (SELECT coalesce(max(id), 0) AS newest FROM notifications) n
    WHERE EXISTS (SELECT 1 FROM users WHERE id = NEW.user_id AND role = 'technician' AND status = 'Active')
    ON CONFLICT (user_id, audience) DO UPDATE SET after_id = excluded.after_id, read_up_to_id = excluded.read_up_to_id;
  ELSE
    DELETE FROM notification_audience_members WHERE user_id = OLD.user_id AND audience = 'team:' || OLD.team_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER team_members_audience AFTER INSERT OR DELETE ON team_members
  FOR EACH ROW EXECUTE FUNCTION team_audience_track();
