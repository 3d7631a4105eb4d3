"""One vault file -> one `Page`: the wiki format's vocabulary, frontmatter, prose, wikilinks, and
which files of the vault are pages."""
