import type { RegistrationFields } from './registration-api';

export interface RegistrationFormValues {
  username: string;
  password: string;
  confirmPassword: string;
  inviteCode: string;
}

export const EMPTY_REGISTRATION: RegistrationFormValues = {
  username: '',
  password: '',
  confirmPassword: '',
  inviteCode: '',
};

/** Admin-api section 15: a password of at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8;

/** The request body: the username trimmed, the invite code only when one was typed. */
export function toRegistrationFields(values: RegistrationFormValues): RegistrationFields {
  const inviteCode = values.inviteCode.trim();
  return {
    username: values.username.trim(),
    password: values.password,
    ...(inviteCode === '' ? {} : { invite_code: inviteCode }),
  };
}

/** The form field a refusal of the gateway names (`param`), if it is one of this form's. */
export function registrationFieldOfParam(param: string): keyof RegistrationFormValues | undefined {
  switch (param) {
    case 'username':
      return 'username';
    case 'password':
      return 'password';
    case 'invite_code':
      return 'inviteCode';
    default:
      return undefined;
  }
}
