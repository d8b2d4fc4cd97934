CREATE TABLE "notification_audience_members" (
	"user_id" text NOT NULL,
	"audience" text NOT NULL,
	"after_id" bigint NOT NULL,
	"read_up_to_id" bigint NOT NULL,
	CONSTRAINT "notification_audience_members_user_id_audience_pk" PRIMARY KEY("user_id","audience")
);
--> statement-breakpoint
CREATE TABLE "notification_reads" (
	"user_id" text NOT NULL,
	"notification_id" bigint NOT NULL,
	"read_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "notification_reads_user_id_notification_id_pk" PRIMARY KEY("user_id","notification_id")
);
--> statement-breakpoint
ALTER TABLE "notifications" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "audience" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "except_user_id" text;--> statement-breakpoint
ALTER TABLE "notification_audience_members" ADD CONSTRAINT "notification_audience_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_reads" ADD CONSTRAINT "notification_reads_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_audience_members_audience_idx" ON "notification_audience_members" USING btree ("audience");--> statement-breakpoint
CREATE INDEX "notification_reads_notification_idx" ON "notification_reads" USING btree ("notification_id");--> statement-breakpoint
-- With except_user_id: a reader's count of an audience's notifications is an index-only scan.
CREATE INDEX "notifications_audience_idx" ON "notifications" USING btree ("audience","id") INCLUDE ("except_user_id") WHERE "notifications"."audience" is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_one_addressee_check" CHECK (("notifications"."user_id" is null) <> ("notifications"."audience" is null));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_audience_check" CHECK ("audience" in ('technicians'));--> statement-breakpoint
ALTER TABLE "notification_audience_members" ADD CONSTRAINT "notification_audience_members_audience_check" CHECK ("audience" in ('technicians'));--> statement-breakpoint
-- Who is in the technicians' audience (decision 068), kept by the database whatever writes a person (sign-up,
-- role selection, an admin's change, SSO, the seed): a row while they are an active technician. Joining (or
-- coming back) starts after the newest notification: nothing sent before is theirs, read or unread, as
-- when each technician got a copy of their own.
CREATE FUNCTION technicians_audience_track() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role = 'technician' AND NEW.status = 'Active' THEN
    IF TG_OP = 'INSERT' OR OLD.role IS DISTINCT FROM 'technician' OR OLD.status IS DISTINCT FROM 'Active' THEN
      INSERT INTO notification_audience_members (user_id, audience, after_id, read_up_to_id)
      SELECT NEW.id, 'technicians', newest, newest FROM (SELECT coalesce(max(id), 0) AS newest FROM notifications) n
      ON CONFLICT (user_id, audience) DO UPDATE SET after_id = excluded.after_id, read_up_to_id = excluded.read_up_to_id;
    END IF;
  ELSIF TG_OP = 'UPDATE' THEN
    DELETE FROM notification_audience_members WHERE user_id = NEW.id AND audience = 'technicians';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_technicians_audience AFTER INSERT OR UPDATE OF role, status ON users
  FOR EACH ROW EXECUTE FUNCTION technicians_audience_track();
--> statement-breakpoint
-- The technicians of today: the broadcasts they already have are rows of their own, so they start here too.
INSERT INTO notification_audience_members (user_id, audience, after_id, read_up_to_id)
SELECT id, 'technicians', n.newest, n.newest
FROM users, (SELECT coalesce(max(id), 0) AS newest FROM notifications) n
WHERE role = 'technician' AND status = 'Active';
