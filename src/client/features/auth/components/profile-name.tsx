import { zodResolver } from "@hookform/resolvers/zod";
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { LoaderCircle, Pencil } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { errorIdFor, Input } from "#client/components/ui/field.tsx";
import { useUpdateProfile } from "#client/features/auth/auth.api.ts";
import { isApiError } from "#client/lib/api-client.ts";
import { toast } from "#client/lib/toast.ts";
import { actorKeys } from "#client/lib/use-actor.ts";
import { type UpdateProfileInput, updateProfileInputSchema } from "#shared/users/user.schemas.ts";

/** The profile's name: shown, and after Edit an input saved by Apply changes (only when it differs). */
export function ProfileName({ name }: { name: string }) {
  const [isEditing, setIsEditing] = useState(false);
  if (!isEditing) {
    return (
      <div className="flex items-center justify-between gap-3">
        <span className="min-w-0 break-words">{name}</span>
        <Button variant="secondary" size="sm" onClick={() => setIsEditing(true)}>
          <Pencil aria-hidden="true" className="size-3.5" />
          <Trans>Edit</Trans>
        </Button>
      </div>
    );
  }
  return <NameForm name={name} onDone={() => setIsEditing(false)} />;
}

function NameForm({ name, onDone }: { name: string; onDone: () => void }) {
  const id = useId();
  const queryClient = useQueryClient();
  const updateProfile = useUpdateProfile();
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<UpdateProfileInput>({
    resolver: zodResolver(updateProfileInputSchema),
    defaultValues: { name },
  });
  // Edit was just clicked: typing should go straight into the name.
  useEffect(() => setFocus("name", { shouldSelect: true }), [setFocus]);

  const handleApply = handleSubmit(async (input) => {
    // The name is saved only when it differs from the current one.
    if (input.name === name) {
      onDone();
      return;
    }
    try {
      await updateProfile.mutateAsync(input);
      toast.success(t`Profile updated successfully`);
      onDone();
    } catch (error) {
      if (isApiError(error, 401)) {
        toast.error(t`Please sign in to update profile`);
        // The session is gone: reloading who we are sends this page to /sign-in.
        await queryClient.invalidateQueries({ queryKey: actorKeys.me });
        return;
      }
      toast.error(t`Could not update the details`);
    }
  });

  return (
    <form noValidate onSubmit={handleApply} className="flex flex-col gap-2">
      <label htmlFor={`${id}-name`} className="sr-only">
        <Trans>Name</Trans>
      </label>
      <Input
        id={`${id}-name`}
        autoComplete="name"
        invalid={errors.name !== undefined}
        {...register("name")}
      />
      {errors.name ? (
        <p id={errorIdFor(`${id}-name`)} className="text-sm text-red-600">
          {errors.name.message}
        </p>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={isSubmitting}>
          {isSubmitting ? <LoaderCircle aria-hidden="true" className="size-3.5 animate-spin" /> : null}
          <Trans>Apply changes</Trans>
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone} disabled={isSubmitting}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
