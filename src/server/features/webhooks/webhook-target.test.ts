import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWebhookReceiver, type WebhookReceiver } from "#server/test/webhook-receiver.ts";
import { postWebhook, webhookSignature } from "./webhook-post.ts";
import { checkWebhookTarget, isPrivateAddress } from "./webhook-target.ts";

describe("isPrivateAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "10.0.0.1",
    "172.16.0.1",
    "172.31.255.255",
    "192.168.0.1",
    "169.254.169.254",
    "100.100.100.200",
    "0.0.0.0",
    "224.0.0.251",
    "255.255.255.255",
    "::",
    "::1",
    "::ffff:127.0.0.1",
    "::ffff:7f00:1",
    "::ffff:10.0.0.1",
    "::127.0.0.1",
    "64:ff9b::10.0.0.1",
    "fc00::1",
    "fd00:ec2::254",
    "fe80::1",
    "ff02::1",
    "not an address",
  ])("refuses %s", (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(["93.184.215.14", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "allows %s",
    (address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );
});

describe("checkWebhookTarget", () => {
  it("refuses a name when any of its addresses is private, and allows everything when private targets are allowed", async () => {
    const resolve = async () => [
      { address: "93.184.215.14", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ];
    await expect(
      checkWebhookTarget("https://mixed.example.com/", { allowPrivate: false, resolve }),
    ).rejects.toThrow("mixed.example.com resolves to 10.0.0.1");
    await expect(checkWebhookTarget("http://127.0.0.1/", { allowPrivate: true })).resolves.toBeUndefined();
    await expect(checkWebhookTarget("file:///etc/passwd", { allowPrivate: true })).rejects.toThrow(
      "Only http",
    );
  });
});

describe("postWebhook: one attempt", () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());
  const attempt = (url: string, allowPrivate: boolean) =>
    postWebhook({
      url,
      body: '{"a":1}',
      secret: "s",
      deliveryId: "whd_x",
      timestamp: 1_700_000_000,
      allowPrivate,
    });

  it("refuses loopback at send time, by address and by a name resolving there, without connecting", async () => {
    receiver.reset();
    for (const url of [
      receiver.url(),
      `http://localhost:${receiver.port}/hook`,
      `http://[::1]:${receiver.port}/`,
    ]) {
      const result = await attempt(url, false);
      expect(result, url).toMatchObject({ kind: "error", refused: true });
      if (result.kind === "error") expect(result.error).toMatch(/private, loopback or reserved address/);
    }
    expect(receiver.received).toEqual([]);
  });

  it("signs with HMAC-SHA256 over timestamp.body and keeps at most 1 KB of the answer", async () => {
    receiver.reset();
    receiver.replies.push({ status: 200, body: "é".repeat(2000) });
    const result = await attempt(`http://localhost:${receiver.port}/hook`, true);
    expect(result.kind).toBe("response");
    if (result.kind === "response") expect(Buffer.byteLength(result.body)).toBeLessThanOrEqual(1024 + 2);
    expect(receiver.received[0]!.headers["helpdesk-webhook-signature"]).toBe(
      webhookSignature("s", 1_700_000_000, '{"a":1}'),
    );
    expect(webhookSignature("s", 1_700_000_000, '{"a":1}')).toMatch(/^v1=[0-9a-f]{64}$/);
  });
});
