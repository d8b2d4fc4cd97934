import { zodResolver } from "@hookform/resolvers/zod";
import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { Dialog } from "#client/components/ui/dialog.tsx";
import { Field, TextField } from "#client/components/ui/field.tsx";
import { Select } from "#client/components/ui/select.tsx";
import { type DemoUser, roleLabel } from "#client/features/demo-users/demo-users.ts";
import { userStatusLabel } from "#client/lib/user-labels.ts";
import { type DemoUserInput, demoUserInputSchema } from "#shared/users/demo-user.schemas.ts";
import { roles, userStatuses } from "#shared/users/roles.ts";
import { defaultDepartment } from "#shared/users/user.schemas.ts";

const newUserDefaults: DemoUserInput = {
  name: "",
  email: "",
  role: "user",
  department: defaultDepartment,
  status: "Active",
};

const roleOptionsOf = () => roles.map((role) => ({ value: role, label: roleLabel(role) }));
const statusOptionsOf = () =>
  userStatuses.map((status) => ({ value: status, label: userStatusLabel(status) }));

interface DemoUserFormDialogProps {
  /** The user to edit; none to add a new one. */
  user?: DemoUser;
  /** Whether another user already has this email. */
  isEmailTaken: (email: string) => boolean;
  onSave: (input: DemoUserInput) => void;
  onClose: () => void;
}

/** The demo's add/edit modal: every field required, the email an email. */
export function DemoUserFormDialog({ user, isEmailTaken, onSave, onClose }: DemoUserFormDialogProps) {
  const { t } = useLingui();
  const id = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<DemoUserInput>({
    resolver: zodResolver(demoUserInputSchema),
    defaultValues: user
      ? {
          name: user.name,
          email: user.email,
          role: user.role,
          department: user.department,
          status: user.status,
        }
      : newUserDefaults,
  });

  const handleSave = handleSubmit((input) => {
    if (isEmailTaken(input.email)) {
      setError("email", { message: t`Another user already has this email` });
      return;
    }
    onSave(input);
  });

  return (
    <Dialog
      title={user ? t`Edit User` : t`Add User`}
      description={user ? t`Change ${user.name}'s details in the demo.` : t`Add a sample user to the demo.`}
      onClose={onClose}
    >
      <form noValidate onSubmit={handleSave} className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label={t`Full Name`}
          error={errors.name?.message}
          className="sm:col-span-2"
          autoComplete="off"
          {...register("name")}
        />
        <TextField
          label={t`Email`}
          type="email"
          error={errors.email?.message}
          className="sm:col-span-2"
          autoComplete="off"
          {...register("email")}
        />
        <Field label={t`Role`} htmlFor={`${id}-role`} error={errors.role?.message}>
          <Select
            id={`${id}-role`}
            invalid={errors.role !== undefined}
            options={roleOptionsOf()}
            {...register("role")}
          />
        </Field>
        <Field label={t`Status`} htmlFor={`${id}-status`} error={errors.status?.message}>
          <Select
            id={`${id}-status`}
            invalid={errors.status !== undefined}
            options={statusOptionsOf()}
            {...register("status")}
          />
        </Field>
        <TextField
          label={t`Department`}
          error={errors.department?.message}
          className="sm:col-span-2"
          autoComplete="off"
          {...register("department")}
        />
        <div className="flex flex-wrap justify-end gap-3 pt-2 sm:col-span-2">
          <Button variant="secondary" onClick={onClose}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit">{user ? t`Save Changes` : t`Add User`}</Button>
        </div>
      </form>
    </Dialog>
  );
}
