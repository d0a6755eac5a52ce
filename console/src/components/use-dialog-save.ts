import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * The save of a dialog's form: on success the lists under `invalidates` reload, the dialog closes
 * and `onSaved` tells the user; closing it any way forgets the last error.
 */
export function useDialogSave<Input, Output>(options: {
  save: (input: Input) => Promise<Output>;
  invalidates: QueryKey;
  onSaved: (saved: Output, input: Input) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: options.save,
    onSuccess: (saved, input) => {
      void queryClient.invalidateQueries({ queryKey: options.invalidates });
      close();
      options.onSaved(saved, input);
    },
  });
  function close() {
    mutation.reset();
    options.onClose();
  }
  return { mutation, close };
}
