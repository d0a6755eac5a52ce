/** The key form's three ways for `log_bodies` (admin-api section 12), as its select holds them. */
export const LOG_BODIES_CHOICES = ['group', 'on', 'off'] as const;
export type LogBodiesChoice = (typeof LOG_BODIES_CHOICES)[number];

/** Null (and a gateway without the attribute) follows the key's group. */
export function logBodiesToChoice(value: boolean | null | undefined): LogBodiesChoice {
  if (value === true) return 'on';
  if (value === false) return 'off';
  return 'group';
}

export function choiceToLogBodies(choice: LogBodiesChoice): boolean | null {
  switch (choice) {
    case 'group':
      return null;
    case 'on':
      return true;
    case 'off':
      return false;
    default: {
      const unknown: never = choice;
      throw new Error(`unknown log_bodies choice ${JSON.stringify(unknown)}`);
    }
  }
}
