-- StackJournal schema version 5: presented destinations beside the stacks.
--
-- A destination a state presents (a `@Presents` property holding a sheet, an alert, a child) is
-- journaled as a record at the path of the property, like a stack holding one element: `#0`,
-- what is presented, with next ID 1. Its rows are those of a stack, in `stacks` and
-- `stack_elements`, marked `presentation = 1`; the record appears when something is presented
-- and disappears when it is dismissed, as each entry's delta says (a change marked
-- `"presentation": true`). Snapshots list such records among their stacks, marked the same way.
--
-- Every existing row is a stack: the column is added with 0, and every entry is kept as it is.
-- Entries recorded before this version hold no presentation, so none is shown for them.

ALTER TABLE stacks ADD COLUMN presentation INTEGER NOT NULL DEFAULT 0
  CONSTRAINT presentation_is_a_flag CHECK (presentation IN (0, 1));
