// Remembered in this browser so the alert code decides at once, without waiting for the server.

const soundsMutedKey = (userId: string) => `helpdesk:sounds-muted:${userId}`;
const desktopKey = (userId: string) => `helpdesk:desktop-notifications:${userId}`;

// Storage can be unavailable (private windows, blocked cookies): then nothing is remembered.
function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not remembered; the server's setting still holds for the mute switch.
  }
}

export const areSoundsMuted = (userId: string) => read(soundsMutedKey(userId)) === "true";
export const rememberSoundsMuted = (userId: string, isMuted: boolean) =>
  write(soundsMutedKey(userId), isMuted ? "true" : null);

export const canShowDesktopNotifications = () => typeof Notification !== "undefined";

/** On when this person opted in here and the browser still allows it. */
export const isDesktopNotificationsOn = (userId: string) =>
  canShowDesktopNotifications() &&
  Notification.permission === "granted" &&
  read(desktopKey(userId)) === "true";

/** Asks the browser (it must be called from a click) and remembers the opt-in if allowed. */
export async function enableDesktopNotifications(userId: string): Promise<NotificationPermission> {
  if (!canShowDesktopNotifications()) return "denied";
  const permission = await Notification.requestPermission();
  write(desktopKey(userId), permission === "granted" ? "true" : null);
  return permission;
}
