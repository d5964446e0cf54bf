// The resources of this library are registered by the object library qt_add_resources creates;
// this file only gives the static library a translation unit of its own.
namespace bs::resources {
int resourcesAnchor()
{
    return 0;
}
} // namespace bs::resources
