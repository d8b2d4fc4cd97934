/** A stand-in for the browser's EventSource: tests open, fail and feed events to the app's stream. */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readyState = FakeEventSource.CONNECTING;
  private readonly listeners = new Map<string, Set<(event: MessageEvent) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  static latest() {
    const source = FakeEventSource.instances.at(-1);
    if (!source) throw new Error("no EventSource was opened");
    return source;
  }

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    if (!this.listeners.has(type)) this.listeners.set(type, new Set());
    this.listeners.get(type)!.add(listener);
  }

  removeEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.get(type)?.delete(listener);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  open() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatch("open");
  }

  /** A dropped connection the browser will retry (readyState CONNECTING), or a refusal (CLOSED). */
  fail({ isFinal = false } = {}) {
    this.readyState = isFinal ? FakeEventSource.CLOSED : FakeEventSource.CONNECTING;
    this.dispatch("error");
  }

  emit(type: string, data: unknown, lastEventId = "") {
    this.dispatch(type, JSON.stringify(data), lastEventId);
  }

  private dispatch(type: string, data?: string, lastEventId = "") {
    const event = new MessageEvent(type, { data, lastEventId });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
}
