/**
 * Browser notifications (the Notification API) for finished tasks. The
 * permission is asked only from a click (browsers ignore or block a request
 * made on their own); notifications are silent. Where the API is missing or
 * the permission is refused, the page's toast is all the user gets.
 */

export type NotificationState = NotificationPermission | 'unsupported';

export function notificationState(): NotificationState {
  return 'Notification' in window ? Notification.permission : 'unsupported';
}

/** Asks for the permission; call it from a click handler. */
export async function requestNotifications(): Promise<NotificationState> {
  if (!('Notification' in window)) return 'unsupported';
  return Notification.requestPermission();
}

/** Shows a silent system notification when permitted; says whether it did. */
export function notify(title: string, body: string, tag: string): boolean {
  if (notificationState() !== 'granted') return false;
  try {
    new Notification(title, { body, tag, silent: true });
    return true;
  } catch {
    // Some browsers (Chrome on Android) only notify from a service worker.
    return false;
  }
}
