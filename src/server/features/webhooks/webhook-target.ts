import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP } from "node:net";

// The SSRF guard (docs/decisions/029-webhooks.md): a webhook makes the server send requests to an address
// an admin typed, so addresses inside the network (loopback, private ranges, link-local incl. the cloud
// metadata service at 169.254.169.254, unique-local, multicast, reserved) are refused, unless the operator
// allows private targets (WEBHOOKS_ALLOW_PRIVATE=true). Checked on save and again at every send, on the
// address the connection actually uses (see guardedLookup), so DNS rebinding cannot slip past it.

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT (and Alibaba's metadata service, 100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local: cloud metadata services
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local (incl. AWS's fd00:ec2::254 metadata address)
  ["fe80::", 10], // link-local
  ["fec0::", 10], // old site-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** An IPv4 address carried inside an IPv6 one (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible, NAT64), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|::ffff:0:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|::ffff:0:|::|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1]!, 16);
  const low = Number.parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** True for an address a webhook must not reach unless private targets are allowed. */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return blocked.check(address, "ipv4");
  if (version !== 6) return true; // not an address at all: refuse rather than guess
  const inner = embeddedIpv4(address);
  if (inner) return blocked.check(inner, "ipv4");
  return blocked.check(address, "ipv6");
}

export class WebhookTargetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookTargetError";
  }
}

const refusal = (host: string, address: string) =>
  new WebhookTargetError(
    host === address
      ? `${address} is a private, loopback or reserved address; webhooks may not be sent there`
      : `${host} resolves to ${address}, a private, loopback or reserved address; webhooks may not be sent there`,
  );

/** The host a URL names, without the brackets of an IPv6 literal. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

export type Resolve = (host: string) => Promise<LookupAddress[]>;
const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * Checks a target URL: http or https, and (unless private targets are allowed) every address its host
 * resolves to is public. Throws WebhookTargetError with a sentence an admin can act on.
 */
export async function checkWebhookTarget(
  rawUrl: string,
  { allowPrivate, resolve = systemResolve }: { allowPrivate: boolean; resolve?: Resolve },
): Promise<void> {
  const url = new URL(rawUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WebhookTargetError("Only http:// and https:// addresses can receive webhooks");
  }
  if (allowPrivate) return;
  const host = hostOf(url);
  if (isIP(host)) {
    if (isPrivateAddress(host)) throw refusal(host, host);
    return;
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new WebhookTargetError(`${host} could not be resolved`);
  }
  if (addresses.length === 0) throw new WebhookTargetError(`${host} could not be resolved`);
  const bad = addresses.find((a) => isPrivateAddress(a.address));
  if (bad) throw refusal(host, bad.address);
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * The `lookup` an outgoing request connects with: it resolves the host once and refuses a private answer,
 * so the address checked is the address connected to (no second lookup a rebinding DNS could answer
 * differently).
 */
export function guardedLookup({ allowPrivate }: { allowPrivate: boolean }) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const bad = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(refusal(hostname, bad.address) as NodeJS.ErrnoException, []);
      if (addresses.length === 0) return callback(new Error(`${hostname} could not be resolved`), []);
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first!.address, first!.family);
    });
  };
}
