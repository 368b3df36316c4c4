"""Commands of this part of Paddock (to be registered on `app`)."""
