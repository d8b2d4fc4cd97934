/** The longest comment or note, in characters; a canned response is as long at most, since it becomes one. */
export const commentMaxLength = 5000;
