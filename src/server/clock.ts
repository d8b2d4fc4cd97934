/** Where services and jobs read the time. Production always uses systemClock; tests inject a controllable one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
