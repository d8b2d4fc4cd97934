import { technicianAlert } from "#shared/notifications/notification-alerts.ts";

// Browsers refuse sound until the person has clicked or typed on the page. Every failure here is
// therefore expected and silent: the toast still says what happened.

export interface Tone {
  durationMs: number;
  type: OscillatorType;
  frequency: number;
  gain: number;
}

/** Something that is playing and can be stopped early (Silence). */
export interface Playback {
  stop: () => void;
}

const silent: Playback = { stop: () => {} };
export const technicianAlertSoundUrl = "/sounds/technician-alert.wav";

let context: AudioContext | null = null;

function audioContext(): AudioContext | null {
  if (typeof AudioContext === "undefined") return null;
  context ??= new AudioContext();
  return context;
}

/** Once the person interacts, a context created while audio was blocked may start. */
export function unlockAudioOnFirstGesture() {
  if (typeof window === "undefined") return () => {};
  const remove = () => {
    window.removeEventListener("pointerdown", unlock);
    window.removeEventListener("keydown", unlock);
  };
  const unlock = () => {
    if (context?.state === "suspended") void context.resume().catch(() => {});
    remove();
  };
  window.addEventListener("pointerdown", unlock);
  window.addEventListener("keydown", unlock);
  return remove;
}

/** A Web Audio beep; nothing at all (and no error) while the browser still blocks audio. */
export function playTone(tone: Tone): Playback {
  let ctx: AudioContext | null;
  try {
    ctx = audioContext();
  } catch {
    return silent;
  }
  if (!ctx) return silent;
  if (ctx.state !== "running") {
    // Scheduling on a suspended context would sound later, out of place, when it resumes: skip it.
    void ctx.resume().catch(() => {});
    return silent;
  }
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = tone.type;
  oscillator.frequency.value = tone.frequency;
  gain.gain.value = tone.gain;
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start();
  oscillator.stop(ctx.currentTime + tone.durationMs / 1000);
  return {
    stop: () => {
      try {
        oscillator.stop();
      } catch {
        // Already stopped.
      }
    },
  };
}

/** At most 2 s, when the alert sound cannot play. */
const fallbackBeep: Tone = {
  durationMs: technicianAlert.fallbackBeepMaxMs,
  type: "sine",
  frequency: 1000,
  gain: 0.3,
};

/**
 * The technician alert: the alert sound looped at full volume for up to 15 s; if it cannot play,
 * one retry 1 s later, then a fallback beep of at most 2 s.
 */
export function playTechnicianAlertSound(): Playback {
  let isStopped = false;
  let audio: HTMLAudioElement | null = null;
  let beep: Playback = silent;
  const timers: ReturnType<typeof setTimeout>[] = [];

  const stop = () => {
    isStopped = true;
    for (const timer of timers) clearTimeout(timer);
    audio?.pause();
    beep.stop();
  };

  const attempt = (retriesLeft: number) => {
    if (isStopped) return;
    const onFailure = () => {
      if (isStopped) return;
      if (retriesLeft > 0)
        timers.push(setTimeout(() => attempt(retriesLeft - 1), technicianAlert.retryDelayMs));
      else beep = playTone(fallbackBeep);
    };
    try {
      audio = new Audio(technicianAlertSoundUrl);
      audio.loop = true;
      audio.volume = technicianAlert.volume;
      const playing = audio.play();
      // Old engines return undefined instead of a promise.
      if (playing) playing.catch(onFailure);
    } catch {
      onFailure();
    }
  };

  attempt(technicianAlert.retries);
  timers.push(setTimeout(stop, technicianAlert.soundMaxMs));
  return { stop };
}
