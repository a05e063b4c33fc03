package timeline

// setReference makes b take the reference path for every record: no
// caches, in the builder or its stores, so that tests can compare what
// the caches conclude with what reading anew concludes.
func (b *Builder) setReference() {
	b.reference = true
	b.stamps.SetReference(true)
	b.texts.SetReference(true)
}
