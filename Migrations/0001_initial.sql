-- placeholder: replaced by the storage work before anything ships
SELECT 1;
