import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { CURRENT_USER_KEY } from '../auth/use-current-user';
import { register, type RegistrationFields } from './registration-api';

/**
 * Creates the account; the gateway signs it in, so the console shows its start page at once (the
 * registration page is no page of a signed-in user).
 */
export function useRegister() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (fields: RegistrationFields) => register(fields),
    onSuccess: (user) => {
      void navigate('/', { replace: true });
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== CURRENT_USER_KEY[0] });
      queryClient.setQueryData(CURRENT_USER_KEY, user);
    },
  });
}
