import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { queryKeys } from '../api/query-keys';
import { createPlaygroundKey } from './create-playground-key';
import {
  forgetPlaygroundKey,
  readStoredPlaygroundKey,
  storePlaygroundKey,
  type PlaygroundKey,
} from './playground-key';

/**
 * The user's playground key: the one this tab keeps, or a new one made once (calls made while it
 * is being made wait for the same one).
 */
export function usePlaygroundKey(userId: number) {
  const queryClient = useQueryClient();
  const creating = useRef<Promise<PlaygroundKey> | undefined>(undefined);

  const obtain = useCallback(async (): Promise<PlaygroundKey> => {
    const now = Date.now() / 1000;
    const stored = readStoredPlaygroundKey({ storage: window.sessionStorage, userId, now });
    if (stored) return stored;
    creating.current ??= createPlaygroundKey({ userId, now })
      .then((key) => {
        storePlaygroundKey(window.sessionStorage, key);
        void queryClient.invalidateQueries({ queryKey: queryKeys.keys('own') });
        return key;
      })
      .finally(() => {
        creating.current = undefined;
      });
    return creating.current;
  }, [queryClient, userId]);

  const forget = useCallback(() => forgetPlaygroundKey(window.sessionStorage), []);

  return { obtain, forget };
}
