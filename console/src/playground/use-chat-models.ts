import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/api-error';
import { queryKeys } from '../api/query-keys';
import { listChatModels } from './list-chat-models';
import type { PlaygroundKey } from './playground-key';

/** The chat models the user may use, as the relay lists them for the playground's key. */
export function useChatModels(options: {
  userId: number;
  obtainKey: () => Promise<PlaygroundKey>;
  forgetKey: () => void;
}) {
  const { userId, obtainKey, forgetKey } = options;
  return useQuery({
    queryKey: queryKeys.playgroundModels(userId),
    queryFn: async () => {
      try {
        return await listChatModels((await obtainKey()).key);
      } catch (error) {
        // The tab's key was deleted or expired meanwhile: a new one.
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        forgetKey();
        return listChatModels((await obtainKey()).key);
      }
    },
    staleTime: 60_000,
  });
}
