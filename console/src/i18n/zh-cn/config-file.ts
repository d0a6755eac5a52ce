import type { Texts } from '../en';

/** 配置即代码: 由配置文件管理的内容 (admin-api 第 13 节)。 */
export const zhCNConfigFile: Pick<Texts, 'managed'> = {
  managed: {
    byFile: '由 {{file}} 管理',
    byTheFile: '由配置文件管理',
    readOnly: '由配置文件 {{file}} 管理, 请在该文件中修改。',
    readOnlyTheFile: '由配置文件管理, 请在该文件中修改。',
    setting: '由配置文件 {{file}} 设置, 请在该文件中修改。',
    settingTheFile: '由配置文件设置, 请在该文件中修改。',
  },
};
