import { enAdmin } from './en/admin';
import { enCommon } from './en/common';
import { enConfigFile } from './en/config-file';
import { enLimits } from './en/limits';
import { enMoney } from './en/money';
import { enRouting } from './en/routing';
import { enSettings } from './en/settings';
import { enUsage } from './en/usage';

/** English texts: the source of every key; `zh-cn.ts` must have the same shape. */
export const en = {
  ...enCommon,
  ...enAdmin,
  ...enSettings,
  ...enLimits,
  ...enRouting,
  ...enUsage,
  ...enConfigFile,
  ...enMoney,
} as const;

type Widen<T> = T extends string ? string : { readonly [Key in keyof T]: Widen<T[Key]> };

/** The shape every language's texts must have. */
export type Texts = Widen<typeof en>;
