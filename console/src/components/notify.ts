import { notifications } from '@mantine/notifications';
import { errorMessage } from '../api/api-error';

export function notifyError(title: string, error: unknown): void {
  notifications.show({ color: 'red', title, message: errorMessage(error) });
}

export function notifySuccess(message: string): void {
  notifications.show({ color: 'teal', message });
}
