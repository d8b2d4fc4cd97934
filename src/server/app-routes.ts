import type { FastifyInstance } from "fastify";
import { defaultAttachmentMaxBytes } from "#shared/attachments/attachment.schemas.ts";
import { scimBasePath } from "#shared/scim/scim-token.schemas.ts";
import type { BackgroundWork } from "./app-background.ts";
import { registerReadiness } from "./app-database-health.ts";
import type { AppDeps } from "./app-deps.ts";
import type { AppLifecycle } from "./app-fastify.ts";
import { authRoutes } from "./auth/auth.routes.ts";
import { type Auth, createAuth } from "./auth/auth.ts";
import { exposedAuthEndpoints } from "./auth/auth-endpoints.ts";
import { createPasswordCheckGate } from "./auth/password-check-gate.ts";
import { createSignInLimits, type SignInLimits } from "./auth/sign-in-limits.ts";
import type { Clock } from "./clock.ts";
import { apiTokenRoutes } from "./features/api-tokens/api-token.routes.ts";
import { articleRoutes } from "./features/articles/article.routes.ts";
import { attachmentRoutes } from "./features/attachments/attachment.routes.ts";
import { automationRuleRoutes } from "./features/automation/automation-rule.routes.ts";
import { cannedResponseRoutes } from "./features/canned-responses/canned-response.routes.ts";
import { customFieldRoutes } from "./features/custom-fields/custom-field.routes.ts";
import { departmentRoutes } from "./features/departments/department.routes.ts";
import { csvExportRoutes } from "./features/exports/csv-export.routes.ts";
import { followerRoutes } from "./features/followers/follower.routes.ts";
import { inboundOutcomeRoutes } from "./features/inbound-mail/inbound-outcomes.routes.ts";
import { macroRoutes } from "./features/macros/macro.routes.ts";
import { majorIncidentRoutes } from "./features/major-incidents/major-incident.routes.ts";
import { mentionRoutes } from "./features/mentions/mention.routes.ts";
import { notificationRoutes } from "./features/notifications/notification.routes.ts";
import { notificationSettingsRoutes } from "./features/notifications/notification-settings.routes.ts";
import { unsubscribeByToken } from "./features/notifications/notification-settings.service.ts";
import { presenceRoutes } from "./features/presence/presence.routes.ts";
import { reportRoutes } from "./features/reports/report.routes.ts";
import { scimRoutes } from "./features/scim/scim.routes.ts";
import { scimTokenRoutes } from "./features/scim/scim-token.routes.ts";
import { authenticateScimToken } from "./features/scim/scim-token.service.ts";
import { searchRoutes } from "./features/search/search.routes.ts";
import { sessionRoutes } from "./features/sessions/session.routes.ts";
import { settingsRoutes } from "./features/settings/settings.routes.ts";
import { tagRoutes } from "./features/tags/tag.routes.ts";
import { teamQueueRoutes } from "./features/team-queues/team-queues.routes.ts";
import { teamRoutes } from "./features/teams/team.routes.ts";
import { ticketLinkRoutes } from "./features/ticket-links/ticket-link.routes.ts";
import { ticketRoutes } from "./features/tickets/ticket.routes.ts";
import { registerAdmin } from "./features/users/admin-registration.service.ts";
import { createOidcRoleMapping } from "./features/users/sso-roles.service.ts";
import { userRoutes } from "./features/users/user.routes.ts";
import { userManagementRoutes } from "./features/users/user-management.routes.ts";
import { viewRoutes } from "./features/views/view.routes.ts";
import { webhookRoutes } from "./features/webhooks/webhook.routes.ts";
import { registerCompression } from "./http/compression.ts";
import { registerDiskSpaceGuard } from "./http/disk-space-guard.ts";
import { registerErrorHandler } from "./http/error-handler.ts";
import { registerIdempotencyKeys } from "./http/idempotency.ts";
import { type AppMetrics, registerMetricsRoute } from "./http/metrics.ts";
import { registerOpenApi } from "./http/openapi.ts";
import { registerSameOriginCheck, registerWrongAddressPage } from "./http/origins.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { contextFor, registerSession } from "./http/session.ts";
import { registerSpa } from "./http/spa.ts";
import { consumeRateLimit, type RateRule } from "./rate-limit.ts";

/**
 * better-auth with the app's sign-in limits; a deleted session, and a role the OIDC mapping changed
 * (decision 082), are told to the dispatcher after commit.
 */
export function createAuthentication(
  deps: AppDeps,
  onSessionDeleted: (userId: string) => void,
  warn: (message: string) => void,
) {
  const { database } = deps;
  const credentialRateLimit = deps.credentialRateLimit ?? { window: 60, max: 10 };
  const signInLimits = createSignInLimits(
    database.db,
    {
      address: credentialRateLimit,
      account: deps.accountRateLimit ?? { window: 900, max: 20 },
      signUp: deps.signUpRateLimit ?? { window: 60, max: 30 },
    },
    deps.passwordChecks ?? createPasswordCheckGate(),
  );
  const auth = createAuth({
    db: database.db,
    baseURL: deps.baseURL,
    secret: deps.authSecret,
    mailer: deps.mailer,
    google: deps.google,
    oidc: deps.oidc,
    ssoAccountLinking: deps.ssoAccountLinking,
    onSessionDeleted,
    oidcRoles: createOidcRoleMapping(database.db, { onRoleChanged: onSessionDeleted, warn }),
  });
  return { auth, signInLimits, credentialRateLimit };
}

export interface RouteServices {
  auth: Auth;
  signInLimits: SignInLimits;
  credentialRateLimit: RateRule;
  isDatabaseAnswering: () => Promise<boolean>;
  clock: Clock;
  metrics: AppMetrics;
  lifecycle: AppLifecycle;
  bodyLimit: number;
  work: BackgroundWork;
}

/**
 * What every request passes through before its route (errors, headers, origin and disk checks,
 * compression, the session), then the OpenAPI document, the probes and metrics.
 */
export async function registerRequestHandling(app: FastifyInstance, deps: AppDeps, services: RouteServices) {
  const { database, diskSpace } = deps;
  const { health } = database;
  registerErrorHandler(app, {
    bodyLimit: services.bodyLimit,
    isDatabaseMarkedUnavailable: () => health?.isAvailable() === false,
  });
  await registerSecurityHeaders(app, { isHttps: deps.baseURL.startsWith("https://") });
  registerSameOriginCheck(app, { baseURL: deps.baseURL });
  if (diskSpace) registerDiskSpaceGuard(app, diskSpace);
  registerWrongAddressPage(app, { baseURL: deps.baseURL });
  // Before compression: its answer is kept as the route wrote it, not as it went over the wire.
  registerIdempotencyKeys(app, { db: database.db, clock: services.clock });
  await registerCompression(app);
  registerSession(app, {
    getSession: (headers) => services.auth.api.getSession({ headers }),
    db: database.db,
    dispatcher: services.work.dispatcher,
    clock: services.clock,
    sessionCache: services.work.sessionCache,
    tokenRateLimit: deps.apiTokenRateLimit ?? { window: 60, max: 600 },
    isDatabaseAnswering: services.isDatabaseAnswering,
  });

  // Before every route: the OpenAPI document (/api/openapi.json, /api/docs) collects them as they are added.
  await registerOpenApi(app, { authEndpoints: exposedAuthEndpoints, baseURL: deps.baseURL });

  app.get("/healthz", async () => ({ status: "ok" }));
  registerMetricsRoute(app, services.metrics, deps.metricsToken);
  registerReadiness(app, database, services.lifecycle);
}

/** The API's routes, feature by feature, then the SPA and its index.html fallback. */
export async function registerFeatureRoutes(app: FastifyInstance, deps: AppDeps, services: RouteServices) {
  const { database } = deps;
  const { dispatcher, hub, presence, webhookPolicy, webhookSender, ticketReads, automation } = services.work;
  const contextOf = contextFor(database.db, dispatcher, services.clock, ticketReads, automation);
  const authProviders = { google: Boolean(deps.google), oidc: deps.oidc ? { label: deps.oidc.label } : null };
  await app.register(authRoutes, {
    auth: services.auth,
    baseURL: deps.baseURL,
    providers: authProviders,
    onSignedOut: (userId: string) => dispatcher.dispatch([{ kind: "session-ended", userId }]),
    signInLimits: services.signInLimits,
    isDatabaseAnswering: services.isDatabaseAnswering,
  });
  await app.register(userRoutes, {
    contextOf,
    registerAdminWithKey: (input) => registerAdmin(database.db, input, deps.adminSignUpKey),
    adminSignUpLimit: (request) =>
      consumeRateLimit(database.db, `${request.ip}|/admin-signup`, services.credentialRateLimit),
  });
  await app.register(ticketRoutes, {
    contextOf,
    invitations: { baseURL: deps.baseURL },
  });
  await app.register(teamQueueRoutes, { contextOf });
  await app.register(csvExportRoutes, { contextOf });
  await app.register(searchRoutes, { contextOf });
  await app.register(followerRoutes, { contextOf });
  await app.register(presenceRoutes, { contextOf, presence });
  await app.register(mentionRoutes, { contextOf });
  await app.register(cannedResponseRoutes, { contextOf });
  await app.register(macroRoutes, { contextOf });
  await app.register(articleRoutes, { contextOf });
  await app.register(apiTokenRoutes, { contextOf });
  await app.register(sessionRoutes, { contextOf });
  await app.register(reportRoutes, { contextOf });
  await app.register(settingsRoutes, { contextOf });
  await app.register(departmentRoutes, { contextOf });
  await app.register(customFieldRoutes, { contextOf });
  await app.register(teamRoutes, { contextOf });
  await app.register(automationRuleRoutes, { contextOf });
  await app.register(tagRoutes, { contextOf });
  await app.register(ticketLinkRoutes, { contextOf });
  await app.register(majorIncidentRoutes, { contextOf });
  await app.register(viewRoutes, { contextOf });
  await app.register(notificationRoutes, { contextOf, hub });
  await app.register(attachmentRoutes, {
    contextOf,
    limits: { maxBytes: deps.attachmentMaxBytes ?? defaultAttachmentMaxBytes },
  });
  await app.register(notificationSettingsRoutes, {
    contextOf,
    unsubscribe: (token) => unsubscribeByToken(database.db, deps.authSecret, token),
  });
  await app.register(userManagementRoutes, { contextOf, mailer: deps.mailer, baseURL: deps.baseURL });
  await app.register(webhookRoutes, {
    contextOf,
    policy: webhookPolicy,
    wakeSender: () => webhookSender.wake(),
  });
  await app.register(inboundOutcomeRoutes, { contextOf });
  await app.register(scimTokenRoutes, { contextOf, baseURL: deps.baseURL });
  // Decision 081: SCIM for identity providers, outside /api, with its own token, parser and error shape.
  await app.register(scimRoutes, {
    prefix: scimBasePath,
    baseURL: deps.baseURL,
    // Limited like a personal API token (decision 024), per token.
    authenticate: (bearer, onRateCounted) =>
      authenticateScimToken(database.db, bearer, {
        now: services.clock.now(),
        rateLimit: deps.apiTokenRateLimit ?? { window: 60, max: 600 },
        onRateCounted,
      }),
    contextOf,
  });
  await registerSpa(app, { clientDir: deps.clientDir, pageRendering: deps.pageRendering, authProviders });
}
