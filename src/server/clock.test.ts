import { describe, expect, it } from "vitest";
import { runAt, systemClock } from "./clock.ts";
import { createTestClock } from "./test/clock.ts";

describe("runAt", () => {
  it("runs at once for a time already reached", () => {
    const clock = createTestClock();
    let runs = 0;
    runAt(clock, clock.now(), () => runs++);
    expect(runs).toBe(1);
  });

  it("runs when a test clock's jump reaches the time, and not on a jump short of it", () => {
    const clock = createTestClock();
    const at = new Date(clock.now().getTime() + 60_000);
    let runs = 0;
    runAt(clock, at, () => runs++);
    clock.advance(59_999);
    expect(runs).toBe(0);
    clock.advance(1);
    expect(runs).toBe(1);
    clock.advance(60_000);
    expect(runs).toBe(1);
  });

  it("runs on the system clock when the time comes", async () => {
    await new Promise<void>((resolve) => runAt(systemClock, new Date(Date.now() + 20), resolve));
  });

  it("never runs once cancelled", () => {
    const clock = createTestClock();
    let runs = 0;
    const cancel = runAt(clock, new Date(clock.now().getTime() + 1_000), () => runs++);
    cancel();
    clock.advance(1_000);
    expect(runs).toBe(0);
  });
});
