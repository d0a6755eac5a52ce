import type { Texts } from './en';
import { zhCNAdmin } from './zh-cn/admin';
import { zhCNCommon } from './zh-cn/common';
import { zhCNConfigFile } from './zh-cn/config-file';
import { zhCNLimits } from './zh-cn/limits';
import { zhCNMoney } from './zh-cn/money';
import { zhCNRouting } from './zh-cn/routing';
import { zhCNSettings } from './zh-cn/settings';
import { zhCNUsage } from './zh-cn/usage';

/** 简体中文: the same keys as `en.ts`, checked by the type. */
export const zhCN: Texts = {
  ...zhCNCommon,
  ...zhCNAdmin,
  ...zhCNSettings,
  ...zhCNLimits,
  ...zhCNRouting,
  ...zhCNUsage,
  ...zhCNConfigFile,
  ...zhCNMoney,
};
