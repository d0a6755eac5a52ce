import {
  createTheme,
  Modal,
  NativeSelect,
  Notification,
  NumberInput,
  Popover,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';

/**
 * Required fields stay `required` (and say so to screen readers) without a `*` in the label, so a
 * field's name is exactly its label's text.
 */
const plainLabel = { defaultProps: { withAsterisk: false } };

/**
 * Mantine's default look, with three changes: labels as above; dialogs and notices close through
 * buttons with visible text (Cancel, Close) or Escape, not an unnamed ×; transitions are instant
 * or short, and off for people who ask for reduced motion (and browser tests that emulate it), so
 * nothing moves while a page settles.
 */
export const theme = createTheme({
  primaryColor: 'indigo',
  respectReducedMotion: true,
  components: {
    Modal: Modal.extend({ defaultProps: { transitionProps: { duration: 0 }, withCloseButton: false } }),
    Popover: Popover.extend({ defaultProps: { transitionProps: { duration: 0 } } }),
    Tooltip: Tooltip.extend({ defaultProps: { transitionProps: { duration: 0 } } }),
    TextInput: TextInput.extend(plainLabel),
    Textarea: Textarea.extend(plainLabel),
    NumberInput: NumberInput.extend(plainLabel),
    NativeSelect: NativeSelect.extend(plainLabel),
    Notification: Notification.extend({ defaultProps: { withBorder: true, withCloseButton: false } }),
  },
});
