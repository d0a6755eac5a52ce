import { Button, Tooltip, type ButtonProps, type ElementProps } from '@mantine/core';

export interface ButtonWithDisabledReasonProps
  extends ButtonProps, ElementProps<'button', keyof ButtonProps> {
  /** Why the action is not available, shown in a tooltip; undefined: the button works. */
  disabledReason?: string | undefined;
}

/**
 * A button that may be unavailable, saying why in a tooltip. Marked `data-disabled` rather than
 * `disabled`, as Mantine advises for a tooltip: a disabled button gets no pointer events to open
 * or close it. It stays focusable, so keyboards reach the reason too; `aria-disabled` tells
 * assistive technology that it does nothing, and a click is ignored.
 */
export function ButtonWithDisabledReason({
  disabledReason,
  onClick,
  ...props
}: ButtonWithDisabledReasonProps) {
  if (disabledReason === undefined) return <Button {...props} onClick={onClick} />;
  return (
    <Tooltip
      label={disabledReason}
      multiline
      maw={320}
      className="break-anywhere"
      events={{ hover: true, focus: true, touch: true }}
    >
      <Button {...props} data-disabled aria-disabled onClick={(event) => event.preventDefault()} />
    </Tooltip>
  );
}
