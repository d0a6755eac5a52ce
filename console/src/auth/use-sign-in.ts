import { useMutation, useQueryClient } from '@tanstack/react-query';
import { signIn, type SignInCredentials } from '../api/auth-api';
import { CURRENT_USER_KEY } from './use-current-user';

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: SignInCredentials) => signIn(credentials),
    onSuccess: (user) => {
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_KEY[0] });
      queryClient.setQueryData(CURRENT_USER_KEY, user);
    },
  });
}
