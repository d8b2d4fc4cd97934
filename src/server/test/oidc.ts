import { OAuth2Server } from "oauth2-mock-server";

export interface OidcPerson {
  sub: string;
  email: string;
  name: string;
  /** What the provider says about the address (`email_verified`); true unless a test says otherwise. */
  emailVerified?: boolean;
  /** The `groups` claim, in the ID token and the userinfo answer; left out when not given. */
  groups?: string[];
  /** Any further claims (`roles`, `department`…), in both as well. */
  claims?: Record<string, unknown>;
}

/** What the provider says about the person, in the ID token and at userinfo alike. */
const claimsOf = (person: OidcPerson) => ({
  ...person.claims,
  sub: person.sub,
  email: person.email,
  email_verified: person.emailVerified ?? true,
  name: person.name,
  ...(person.groups ? { groups: person.groups } : {}),
});

/**
 * A real OpenID Connect provider on loopback; `signInAs` sets who the next login is. Server tests use a
 * free port; the browser journeys' server (scripts/e2e-server.ts) a fixed one.
 */
export async function startOidcProvider(port = 0) {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(port, "127.0.0.1");
  let person: OidcPerson = { sub: "oidc-default", email: "default@org.test", name: "Default Person" };
  server.service.on("beforeTokenSigning", (token) => {
    Object.assign(token.payload, claimsOf(person));
  });
  server.service.on("beforeUserinfo", (response) => {
    response.body = claimsOf(person);
  });
  const issuer = server.issuer.url!;
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    signInAs(next: OidcPerson) {
      person = next;
    },
    stop: () => server.stop(),
  };
}
