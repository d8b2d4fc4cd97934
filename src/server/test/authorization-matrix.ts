// Decision 045: every route the server registers × every kind of caller, and the status each gets.
// authorization-matrix.test.ts reads Fastify's route table and fails when a route has no row here, sends
// every cell against the fixtures it describes, and checks that a refused call changed nothing.
//
// The fixtures behind each :param: one ticket raised by "owner" (a user) and assigned to "assignee" (a
// technician), "In Progress" unless the row's note says otherwise; "technician" is another technician, to
// whom the assigned ticket is invisible; "other" is another user. The other ids are the ticket's
// attachment (uploaded by owner with a comment), a custom field, a published article with two revisions,
// the assignee's personal canned response, a notification, an API token and a second session of owner's, a webhook with one
// failed delivery (to a receiver on loopback, which Send test reaches), a person with the user role (:userId), and a team with the assignee in it and a routing
// rule to it (:teamId, :ruleId; also the team of the routing and ticket-team calls), and an automation rule
// (:automationRuleId), and a SCIM token the administrator created (:scimTokenId). For the major incident
// and known-issue routes (decision 077) the ticket is a declared
// major incident, and :affectedId a second ticket of owner's, assigned to assignee, that it affects.
//
// Columns:
//   anon   nobody signed in
//   own    owner (user)         oth    another user          tech   a technician (not the assignee)
//   asgn   the assignee         adm    an administrator      nrol   a person who has not chosen a role
//   deac   a person an administrator deactivated (their old session cookie)
//   then the same people calling with their personal API token (Authorization: Bearer), read-write, and
//   adRO: the administrator's read-only token. Nobody without a role can hold one; deac's token was made
//   before the deactivation.
// HEAD answers as GET does (Fastify derives it): a HEAD route takes its GET route's row unless it has one.
// A wildcard route (/api/auth/*) is called at the example the test names for it.

export const principals = [
  "anonymous",
  "owner",
  "otherUser",
  "technician",
  "assignee",
  "admin",
  "roleless",
  "deactivated",
  "ownerToken",
  "otherUserToken",
  "technicianToken",
  "assigneeToken",
  "adminToken",
  "adminReadToken",
  "deactivatedToken",
] as const;
export type Principal = (typeof principals)[number];

export const authorizationTable = `
#                                                                         ---------- session cookie ---------- | ------------ API token -----------
# method url                                                              anon own oth tech asgn adm nrol deac | own oth tech asgn adm adRO deac
  GET    /api/openapi.json                                                200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  GET    /api/docs                                                        200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  GET    /api/docs/                                                       200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  GET    /api/docs/static/index.html                                      302  302 302 302  302  302 302  302  | 302 302 302  302  302 302  401
  GET    /api/docs/static/swagger-initializer.js                          200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  GET    /api/docs/static/*                                               200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401  # at /api/docs/static/swagger-ui.css
  GET    /api/docs/json                                                   200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  GET    /api/docs/yaml                                                   200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  GET    /api/departments                                                 401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  GET    /api/auth/providers                                              200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  200
  GET    /api/auth/*                                                      200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  200  # at /api/auth/get-session
  POST   /api/auth/*                                                      200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  200  # at /api/auth/sign-out; each caller who succeeds is a new person
  HEAD   /api/auth/*                                                      404  404 404 404  404  404 404  404  | 404 404 404  404  404 404  404  # better-auth answers GET only
  POST   /api/admin-signup                                                201  201 201 201  201  201 201  201  | 201 201 201  201  201 403  401  # with the right admin key
  GET    /api/admin/users                                                 401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  POST   /api/admin/users                                                 401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  GET    /api/admin/users/export.csv                                      401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  GET    /api/admin/users/summary                                         401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PATCH  /api/admin/users/:userId                                         401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/admin/users/:userId/status                                  401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  POST   /api/admin/users/:userId/password-reset                          401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/users/:userId/history                                 401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  GET    /api/admin/settings/business-calendar                            401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/business-calendar                            401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/sla-policies                                 401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/sla-policies                                 401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/departments                                  401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/departments                                  401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/auto-close                                   401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/auto-close                                   401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/on-hold                                      401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/on-hold                                      401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/two-factor                                   401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  GET    /api/admin/settings/tags                                         401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/tags                                         401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/ticket-intake                                401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/ticket-intake                                401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/settings/sso-roles                                    401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PUT    /api/admin/settings/sso-roles                                    401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/admin/settings/two-factor                                   401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401  # sets it off: on, it would hold every staff caller here
  GET    /api/admin/settings/history                                      401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  GET    /api/admin/settings/custom-fields                                401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  POST   /api/admin/settings/custom-fields                                401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  PUT    /api/admin/settings/custom-fields/order                          401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/admin/settings/custom-fields/:fieldId                       401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/admin/settings/custom-fields/:fieldId/retired               401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/scim/tokens                                           401  403 403 403  403  200 403  401  | 403 403 403  403  403 403  401
  POST   /api/admin/scim/tokens                                           401  403 403 403  403  201 403  401  | 403 403 403  403  403 403  401
  DELETE /api/admin/scim/tokens/:scimTokenId                              401  403 403 403  403  204 403  401  | 403 403 403  403  403 403  401
  GET    /scim/v2/ServiceProviderConfig                                   401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401  # SCIM takes a SCIM token only (decision 081)
  GET    /scim/v2/ResourceTypes                                           401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401
  GET    /scim/v2/Schemas                                                 401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401
  GET    /scim/v2/Users                                                   401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401
  POST   /scim/v2/Users                                                   401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401
  GET    /scim/v2/Users/:id                                               401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401  # at an id (refused before it is looked up)
  PUT    /scim/v2/Users/:id                                               401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401  # at an id (refused before it is looked up)
  PATCH  /scim/v2/Users/:id                                               401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401  # at an id (refused before it is looked up)
  DELETE /scim/v2/Users/:id                                               401  401 401 401  401  401 401  401  | 401 401 401  401  401 401  401  # at an id (refused before it is looked up)
  GET    /api/admin/webhooks                                              401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  POST   /api/admin/webhooks                                              401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  GET    /api/admin/webhooks/:webhookId                                   401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  PATCH  /api/admin/webhooks/:webhookId                                   401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  DELETE /api/admin/webhooks/:webhookId                                   401  403 403 403  403  204 403  401  | 403 403 403  403  204 403  401
  POST   /api/admin/webhooks/:webhookId/rotate-secret                     401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  POST   /api/admin/webhooks/:webhookId/test                              401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/admin/webhooks/:webhookId/deliveries                        401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  POST   /api/admin/webhooks/:webhookId/deliveries/:deliveryId/redeliver  401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  GET    /api/admin/inbound-mail                                          401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  GET    /api/teams                                                       401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  POST   /api/teams                                                       401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  PUT    /api/teams/:teamId                                               401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  DELETE /api/teams/:teamId                                               401  403 403 403  403  204 403  401  | 403 403 403  403  204 403  401
  GET    /api/routing                                                     401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  POST   /api/routing/rules                                               401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  PUT    /api/routing/rules/order                                         401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/routing/rules/:ruleId                                       401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  DELETE /api/routing/rules/:ruleId                                       401  403 403 403  403  204 403  401  | 403 403 403  403  204 403  401
  PUT    /api/routing/default-team                                        401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/automation/rules                                            401  403 403 403  403  200 403  401  | 403 403 403  403  200 200  401
  POST   /api/automation/rules                                            401  403 403 403  403  201 403  401  | 403 403 403  403  201 403  401
  POST   /api/automation/rules/try                                        401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/automation/rules/order                                      401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/automation/rules/:automationRuleId                          401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  PUT    /api/automation/rules/:automationRuleId/enabled                  401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  DELETE /api/automation/rules/:automationRuleId                          401  403 403 403  403  204 403  401  | 403 403 403  403  204 403  401
  GET    /api/articles                                                    401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  POST   /api/articles                                                    401  403 403 201  201  201 403  401  | 403 403 201  201  201 403  401
  GET    /api/articles/suggestions                                        401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  GET    /api/articles/stats                                              401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/articles/from-ticket/:ticketId                              401  403 403 404  422  422 403  401  | 403 403 404  422  422 422  401
  POST   /api/articles/deflections                                        401  200 200 200  200  200 403  401  | 200 200 200  200  200 403  401
  GET    /api/articles/:articleId                                         401  200 200 200  200  200 404  401  | 200 200 200  200  200 200  401
  PATCH  /api/articles/:articleId                                         401  403 403 200  200  200 403  401  | 403 403 200  200  200 403  401
  GET    /api/articles/:articleId/revisions                               401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/articles/:articleId/diff                                    401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  PUT    /api/articles/:articleId/vote                                    401  200 200 200  200  200 404  401  | 200 200 200  200  200 403  401
  POST   /api/articles/:articleId/suggestion-opens                        401  200 200 200  200  200 404  401  | 200 200 200  200  200 403  401
  POST   /api/attachments                                                 401  201 201 201  201  201 403  401  | 201 201 201  201  201 403  401
  GET    /api/attachments/:attachmentId                                   401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401
  GET    /api/attachments/:attachmentId/preview                           401  404 404 404  404  404 404  401  | 404 404 404  404  404 404  401  # a text file has no preview
  GET    /api/me                                                          200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  401
  PATCH  /api/me                                                          401  200 200 200  200  200 200  401  | 200 200 200  200  200 403  401
  PUT    /api/me/theme                                                    401  200 200 200  200  200 200  401  | 200 200 200  200  200 403  401
  GET    /api/me/tokens                                                   401  200 200 200  200  200 403  401  | 403 403 403  403  403 403  401
  POST   /api/me/tokens                                                   401  201 201 201  201  201 403  401  | 403 403 403  403  403 403  401
  DELETE /api/me/tokens/:tokenId                                          401  204 404 404  404  404 403  401  | 403 403 403  403  403 403  401
  PUT    /api/me/locale                                                   401  200 200 200  200  200 200  401  | 200 200 200  200  200 403  401
  PUT    /api/me/away                                                     401  403 403 200  200  403 403  401  | 403 403 200  200  403 403  401
  GET    /api/me/sessions                                                 401  200 200 200  200  200 200  401  | 403 403 403  403  403 403  401
  POST   /api/me/sessions/revoke-others                                   401  200 200 200  200  200 200  401  | 403 403 403  403  403 403  401
  DELETE /api/me/sessions/:sessionId                                      401  204 404 404  404  404 404  401  | 403 403 403  403  403 403  401  # another session of owner's
  POST   /api/me/role                                                     401  409 409 409  409  409 200  401  | 409 409 409  409  409 403  401  # each caller who succeeds is a new person
  GET    /api/me/notification-settings                                    401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  PUT    /api/me/notification-settings                                    401  200 200 200  200  200 200  401  | 200 200 200  200  200 403  401
  GET    /api/technicians                                                 401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/tickets                                                     401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  POST   /api/tickets                                                     401  201 201 403  403  201 403  401  | 201 201 403  403  201 403  401
  GET    /api/tickets/summary                                             401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  GET    /api/tickets/queues                                              401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  POST   /api/tickets/bulk                                                401  403 403 200  200  200 403  401  | 403 403 200  200  200 403  401
  GET    /api/tickets/export.csv                                          401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  GET    /api/tickets/:ticketId                                           401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401
  PATCH  /api/tickets/:ticketId                                           401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  POST   /api/tickets/:ticketId/assign                                    401  403 404 404  409  403 404  401  | 403 404 404  409  403 403  401
  PUT    /api/tickets/:ticketId/assignee                                  401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  GET    /api/tickets/:ticketId/activity                                  401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401
  PATCH  /api/tickets/:ticketId/status                                    401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  POST   /api/tickets/:ticketId/comments                                  401  201 404 404  201  201 404  401  | 201 404 404  201  201 403  401
  GET    /api/tickets/:ticketId/custom-fields                             401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401
  PUT    /api/tickets/:ticketId/custom-fields                             401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  PUT    /api/tickets/:ticketId/hold                                      401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  PATCH  /api/tickets/:ticketId/hold                                      401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401  # the ticket is on hold
  DELETE /api/tickets/:ticketId/hold                                      401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401  # the ticket is on hold
  PUT    /api/tickets/:ticketId/team                                      401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  PUT    /api/tickets/:ticketId/feedback                                  401  200 404 404  403  403 404  401  | 200 404 404  403  403 403  401  # the ticket is Resolved
  GET    /api/tickets/:ticketId/follow                                    401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401
  PUT    /api/tickets/:ticketId/follow                                    401  200 404 404  200  200 404  401  | 200 404 404  200  200 403  401
  DELETE /api/tickets/:ticketId/follow                                    401  200 404 404  200  200 404  401  | 200 404 404  200  200 403  401
  PUT    /api/tickets/:ticketId/presence                                  401  403 404 404  200  200 404  401  | 403 403 403  403  403 403  401  # staff who may see it; never an API token
  DELETE /api/tickets/:ticketId/presence                                  401  403 404 404  204  204 404  401  | 403 403 403  403  403 403  401
  GET    /api/tags                                                        401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  PATCH  /api/tickets/:ticketId/tags                                      401  403 403 404  200  200 403  401  | 403 403 404  200  200 403  401
  GET    /api/tickets/:ticketId/links                                     401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401  # to another ticket of owner's, assigned to assignee
  POST   /api/tickets/:ticketId/links                                     401  403 404 404  201  201 404  401  | 403 404 404  201  201 403  401
  DELETE /api/tickets/:ticketId/links/:linkId                             401  403 404 404  204  204 404  401  | 403 404 404  204  204 403  401
  POST   /api/tickets/:ticketId/merge                                     401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401  # into another ticket of owner's, assigned to assignee
  GET    /api/tickets/:ticketId/major-incident                            401  200 404 404  200  200 404  401  | 200 404 404  200  200 200  401  # the ticket is a major incident (decision 077)
  PUT    /api/tickets/:ticketId/major-incident                            401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401
  DELETE /api/tickets/:ticketId/major-incident                            401  403 404 404  204  204 404  401  | 403 404 404  204  204 403  401
  POST   /api/tickets/:ticketId/incident/affected                         401  403 404 404  200  200 404  401  | 403 404 404  200  200 403  401  # another ticket of owner's, assigned to assignee
  DELETE /api/tickets/:ticketId/incident/affected/:affectedId             401  403 404 404  204  204 404  401  | 403 404 404  204  204 403  401  # that ticket, affected
  POST   /api/tickets/:ticketId/incident/updates                          401  403 404 404  201  201 404  401  | 403 404 404  201  201 403  401
  GET    /api/known-issues                                                401  200 200 200  200  200 403  401  | 200 200 200  200  200 200  401
  GET    /api/known-issues/:ticketId                                      401  200 200 200  200  200 403  401  | 200 200 200  200  200 200  401  # open: every signed-in person
  PUT    /api/known-issues/:ticketId/follow                               401  200 200 200  200  200 403  401  | 200 200 200  200  200 403  401
  DELETE /api/known-issues/:ticketId/follow                               401  200 200 200  200  200 403  401  | 200 200 200  200  200 403  401
  GET    /api/views                                                       401  200 200 200  200  200 403  401  | 200 200 200  200  200 200  401
  POST   /api/views                                                       401  201 201 201  201  201 403  401  | 201 201 201  201  201 403  401
  PUT    /api/views/:viewId                                               401  404 404 403  403  200 403  401  | 404 404 403  403  200 403  401  # a view an admin shared with all staff
  DELETE /api/views/:viewId                                               401  404 404 403  403  204 403  401  | 404 404 403  403  204 403  401
  PUT    /api/teams/:teamId/assignment                                    401  403 403 403  403  200 403  401  | 403 403 403  403  200 403  401
  GET    /api/search                                                      401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  GET    /api/staff                                                       401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/canned-responses                                            401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  POST   /api/canned-responses                                            401  403 403 201  201  201 403  401  | 403 403 201  201  201 403  401
  PATCH  /api/canned-responses/:responseId                                401  403 403 404  200  404 403  401  | 403 403 404  200  404 403  401
  DELETE /api/canned-responses/:responseId                                401  403 403 404  204  404 403  401  | 403 403 404  204  404 403  401
  GET    /api/macros                                                      401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  POST   /api/macros                                                      401  403 403 201  201  201 403  401  | 403 403 201  201  201 403  401
  PATCH  /api/macros/:macroId                                             401  403 403 404  200  404 403  401  | 403 403 404  200  404 403  401  # the assignee's personal macro
  DELETE /api/macros/:macroId                                             401  403 403 404  204  404 403  401  | 403 403 404  204  404 403  401
  GET    /api/tickets/:ticketId/macros/:macroId/preview                   401  403 403 404  200  404 403  401  | 403 403 404  200  404 404  401
  POST   /api/tickets/:ticketId/macros/:macroId/apply                     401  403 403 404  200  404 403  401  | 403 403 404  200  404 403  401
  POST   /api/tickets/bulk/macro                                          401  403 403 404  200  404 403  401  | 403 403 404  200  404 403  401
  GET    /api/custom-fields                                               401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  GET    /api/reports/ticket-volume                                       401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/reports/ticket-breakdown                                    401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/reports/response-times                                      401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/reports/satisfaction                                        401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/reports/workload                                            401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/reports/teams                                               401  403 403 200  200  200 403  401  | 403 403 200  200  200 200  401
  GET    /api/notifications                                               401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  POST   /api/notifications                                               401  201 403 403  403  403 403  401  | 201 403 403  403  403 403  401  # for owner
  GET    /api/notifications/stream                                        401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401  # Server-Sent Events: the status, then the test hangs up
  GET    /api/notifications/counts                                        401  200 200 200  200  200 200  401  | 200 200 200  200  200 200  401
  POST   /api/notifications/read-all                                      401  200 200 200  200  200 200  401  | 200 200 200  200  200 403  401
  POST   /api/notifications/unsubscribe                                   400  400 400 400  400  400 400  400  | 400 400 400  400  400 403  401  # with a token that is not valid
  GET    /api/notifications/unsubscribe                                   303  303 303 303  303  303 303  303  | 303 303 303  303  303 303  401  # with a token that is not valid
  POST   /api/notifications/:notificationId/read                          401  200 404 404  404  404 404  401  | 200 404 404  404  404 403  401
  GET    /healthz                                                         200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  200
  GET    /metrics                                                         404  404 404 404  404  404 404  404  | 404 404 404  404  404 404  404  # no METRICS_TOKEN configured
  GET    /readyz                                                          200  200 200 200  200  200 200  200  | 200 200 200  200  200 200  200
`;

export interface MatrixRow {
  method: string;
  url: string;
  expected: Record<Principal, number>;
}

/** The table's rows, keyed "METHOD /url". */
export function parseAuthorizationTable(table = authorizationTable): Map<string, MatrixRow> {
  const rows = new Map<string, MatrixRow>();
  for (const line of table.split("\n")) {
    const content = line.replace(/#.*$/, "").trim();
    if (!content) continue;
    const [method = "", url = "", ...cells] = content.split(/\s+/).filter((cell) => cell !== "|");
    if (cells.length !== principals.length) {
      throw new Error(`${method} ${url}: ${cells.length} statuses, expected ${principals.length}`);
    }
    const key = `${method} ${url}`;
    if (rows.has(key)) throw new Error(`${key}: two rows`);
    const expected = Object.fromEntries(principals.map((p, i) => [p, Number(cells[i])])) as Record<
      Principal,
      number
    >;
    rows.set(key, { method, url, expected });
  }
  return rows;
}

/** The row a route is held to: its own, or for HEAD its GET route's. */
export function rowFor(rows: Map<string, MatrixRow>, method: string, url: string): MatrixRow | undefined {
  return rows.get(`${method} ${url}`) ?? (method === "HEAD" ? rows.get(`GET ${url}`) : undefined);
}
