import { useState } from 'preact/hooks';
import { notificationState, requestNotifications, type NotificationState } from '../../lib/notifications';

const SAID: Record<NotificationState, string> = {
  default: 'Finished tasks show as messages on this page.',
  granted: 'Notifications are on: a finished task also shows as a system notification.',
  denied: 'Notifications are blocked in this browser’s settings; finished tasks show as messages on this page.',
  unsupported: 'This browser has no notifications; finished tasks show as messages on this page.',
};

/** The notification permission, asked from a button (browsers only grant it from a click). */
export function NotificationToggle() {
  const [state, setState] = useState<NotificationState>(notificationState);
  return (
    <p class="notification-toggle">
      <span>{SAID[state]}</span>{' '}
      {state === 'default' && (
        <button type="button" class="secondary" onClick={() => void requestNotifications().then(setState)}>
          Enable notifications
        </button>
      )}
    </p>
  );
}
