import type { FastifyInstance } from "fastify";
import { defaultAttachmentMaxBytes } from "#shared/attachments/attachment.schemas.ts";
import type { BackgroundWork } from "./app-background.ts";
import type { AppDeps } from "./app-deps.ts";
import type { Clock } from "./clock.ts";
import { attachmentCleanupJob } from "./features/attachments/attachment-cleanup.ts";
import { automationTimeRulesJob } from "./features/automation/time-rules.ts";
import { idempotencyKeyRetentionJob } from "./features/idempotency/idempotency-retention.ts";
import { createInboundMailListener } from "./features/inbound-mail/inbound-mail.server.ts";
import { notificationRetentionJob } from "./features/notifications/notification-retention.ts";
import { autoCloseJob } from "./features/service-levels/auto-close.ts";
import { onHoldJob } from "./features/service-levels/on-hold.ts";
import { slaEscalationJob } from "./features/service-levels/sla-escalation.ts";
import { webhookDeliveryJob, webhookRetentionJob } from "./features/webhooks/webhook-sender.ts";
import type { AppMetrics } from "./http/metrics.ts";
import { createJobRunner, type Job } from "./jobs/job-runner.ts";

/** Scheduled work, at most one instance at a time per job (docs/decisions/018-scheduled-jobs.md). */
export function createScheduledJobs(
  app: FastifyInstance,
  deps: AppDeps,
  { clock, metrics, work }: { clock: Clock; metrics: AppMetrics; work: BackgroundWork },
) {
  const { liveness, webhookSender } = work;
  const jobs = createJobRunner({
    db: deps.database.db,
    log: app.log,
    clock,
    dispatcher: work.dispatcher,
    onRun: metrics.jobRun,
    ...deps.jobs,
    instanceId: liveness.id,
    isAlive: liveness.isAlive,
  });
  work.wakeJobsWith(() => void jobs.tick());
  const scheduled: Array<Job | null> = [
    notificationRetentionJob({ olderThanDays: deps.notificationRetentionDays ?? 90 }),
    attachmentCleanupJob(),
    slaEscalationJob(),
    autoCloseJob(),
    onHoldJob(),
    automationTimeRulesJob(),
    webhookDeliveryJob(webhookSender),
    webhookRetentionJob({ olderThanDays: deps.webhooks?.retentionDays ?? 30 }),
    idempotencyKeyRetentionJob(),
  ];
  for (const job of scheduled) if (job) jobs.register(job);
  app.decorate("jobs", jobs);
  return jobs;
}

/** E-mail to ticket (decision 028): the SMTP listener when INBOUND_SMTP_PORT is set, listening once the app is ready. */
export async function startInboundMail(
  app: FastifyInstance,
  deps: AppDeps,
  { clock, work }: { clock: Clock; work: BackgroundWork },
) {
  const inboundMail = deps.inboundMail
    ? await createInboundMailListener({
        db: deps.database.db,
        dispatcher: work.dispatcher,
        automation: work.automation,
        clock,
        secret: deps.authSecret,
        baseURL: deps.baseURL,
        attachmentMaxBytes: deps.attachmentMaxBytes ?? defaultAttachmentMaxBytes,
        settings: deps.inboundMail,
        host: deps.inboundMail.host,
        port: deps.inboundMail.port,
        wakeMail: () => work.mailDispatcher.wake(),
        instanceId: work.liveness.id,
        log: {
          info: (data, message) => app.log.info(data, message),
          warn: (data, message) => app.log.warn(data, message),
        },
      })
    : null;
  app.decorate("inboundMail", inboundMail);
  if (inboundMail) {
    app.addHook("onReady", async () => {
      await inboundMail.listen();
      app.log.info(`Inbound mail: listening for SMTP on ${deps.inboundMail!.host}:${inboundMail.port()}`);
    });
    // Before the database and the mail dispatcher stop: a message under way finishes first.
    app.addHook("preClose", () => inboundMail.close());
  }
}
