import { useLingui } from "@lingui/react/macro";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { TextField } from "#client/components/ui/field.tsx";
import { PasswordField } from "#client/components/ui/password-input.tsx";

interface NewAccount {
  name: string;
  email: string;
  password: string;
}

/**
 * Name, Email and a new Password: what sign-up and admin registration both ask first. `values` and
 * `answerErrors` come from the server's answer to the form posted without the app's code (decision 065):
 * what was sent (never the password) and what is wrong with it, until the next submit.
 */
export function NewAccountFields<Values extends NewAccount>(props: {
  register: UseFormRegister<Values>;
  errors: FieldErrors<Values>;
  answerErrors?: Readonly<Record<string, string>>;
  values?: Readonly<Record<string, string>>;
}) {
  // react-hook-form cannot see that "name" is a path of every Values extending NewAccount; these three
  // fields exist in each form that renders this, so narrowing the form to them is safe.
  const { register, errors } = props as unknown as {
    register: UseFormRegister<NewAccount>;
    errors: FieldErrors<NewAccount>;
  };
  const { answerErrors = {}, values } = props;
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={t`Name`}
        error={errors.name?.message ?? answerErrors.name}
        autoComplete="name"
        placeholder={t`Jane Doe`}
        defaultValue={values?.name}
        {...register("name")}
      />
      <TextField
        label={t`Email`}
        error={errors.email?.message ?? answerErrors.email}
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        defaultValue={values?.email}
        {...register("email")}
      />
      <PasswordField
        label={t`Password`}
        error={errors.password?.message ?? answerErrors.password}
        autoComplete="new-password"
        placeholder={t`At least 8 characters`}
        {...register("password")}
      />
    </>
  );
}
